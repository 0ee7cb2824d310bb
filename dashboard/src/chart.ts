import uPlot from 'uplot';
import { h } from './dom';
import { t } from './i18n';

export interface Series {
  label: string;
  values: number[];
  colour: string;
}

/**
 * A chart of periods (uPlot on a canvas) with its numbers as a table: the canvas is hidden from screen readers, the
 * table under `<details>` gives them (and anyone) the same figures. `format` writes a value (an amount, a count).
 */
export function chart(title: string, periods: string[], series: Series[], format: (value: number) => string, periodLabel: (period: string) => string): HTMLElement {
  const plot = h('div', { class: 'plot', 'aria-hidden': 'true' });
  const numbers = h(
    'table',
    {},
    h('caption', { class: 'visually-hidden' }, title),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('period')), series.map((s) => h('th', { scope: 'col', class: 'num' }, s.label)))),
    h('tbody', {}, periods.map((p, i) => h('tr', {}, h('th', { scope: 'row' }, periodLabel(p)), series.map((s) => h('td', { class: 'num' }, format(s.values[i] ?? 0)))))),
  );
  const figure = h(
    'figure',
    { class: 'chart' },
    h('figcaption', {}, title),
    plot,
    h('details', {}, h('summary', {}, t('chartData', { title })), h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': title }, numbers)),
  );
  // Drawn once in the page (uPlot measures its box); redrawn at the new width when the screen is resized.
  requestAnimationFrame(() => {
    if (!plot.isConnected) return;
    const size = () => ({ width: Math.max(240, plot.clientWidth), height: 220 });
    const instance = new uPlot(
      {
        ...size(),
        legend: { show: true, live: false },
        cursor: { show: false },
        scales: { x: { time: false } },
        axes: [
          { values: (_u, ticks) => ticks.map((i) => (periods[i] ? periodLabel(periods[i]!) : '')), space: 60 },
          { values: (_u, ticks) => ticks.map(format), size: 90 },
        ],
        series: [{ label: t('period') }, ...series.map((s) => ({ label: s.label, stroke: s.colour, width: 2, points: { show: true } }))],
      },
      [periods.map((_, i) => i), ...series.map((s) => s.values)],
      plot,
    );
    new ResizeObserver(() => instance.setSize(size())).observe(plot);
  });
  return figure;
}
