import type { AnalyticsResults } from './analytics-scenarios';
import type { TargetCheck } from './targets';

/** Issue 33: the read's p50 at the larger size at most this many times the smaller's. */
export const ANALYTICS_GROWTH_TARGET = 1.2;

const ms = (value: number) => `${value.toFixed(2)} ms`;
const p50 = (r: AnalyticsResults, name: string) => r.results.get(name)!.summary.p50;

function growths(r: AnalyticsResults) {
  const [small, large] = [r.sizes[0]!.invoices, r.sizes[r.sizes.length - 1]!.invoices];
  return ['invoiced', 'mrr'].map((metric) => ({ metric, small, large, growth: p50(r, `${metric} ${large}`) / p50(r, `${metric} ${small}`) }));
}

export const analyticsTargets = (r: AnalyticsResults): TargetCheck[] =>
  growths(r).map(({ metric, small, large, growth }) => ({
    target: `GET /v1/analytics/${metric} p50 at ${large.toLocaleString('en-US')} invoices ≤ ${ANALYTICS_GROWTH_TARGET}× at ${small.toLocaleString('en-US')}`,
    measured: `${growth.toFixed(2)}× (${ms(p50(r, `${metric} ${large}`))} vs ${ms(p50(r, `${metric} ${small}`))})`,
    pass: growth <= ANALYTICS_GROWTH_TARGET,
  }));

export function analyticsReport(r: AnalyticsResults): string {
  const rows = r.sizes.flatMap(({ invoices, items }) =>
    ['invoiced', 'mrr', 'floor'].map((name) => {
      const { summary, callsPerRequest } = r.results.get(`${name} ${invoices}`)!;
      const what = name === 'floor' ? 'its floor: the Query of the billing family, sent directly' : `GET /v1/analytics/${name}, a year by month`;
      return `| ${invoices.toLocaleString('en-US')} (${items.toLocaleString('en-US')} day items) | ${what} | ${ms(summary.p50)} | ${ms(summary.p95)} | ${callsPerRequest.toFixed(1)} |`;
    }),
  );
  return [
    '## Analytics: a metric read as the invoices grow',
    '',
    'Each workspace holds a year of day items as the stream leaves them for that many invoices (seeded directly: docs/analytics.md, "Benchmark"); a read is one Query of one family, whose size follows the days, not the invoices.',
    '',
    '| invoices | request | p50 | p95 | DynamoDB calls |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    ...growths(r).map(({ metric, growth }) => `- ${metric}: p50 grows ${growth.toFixed(2)}× from the smaller workspace to the larger (target ≤ ${ANALYTICS_GROWTH_TARGET}×).`),
  ].join('\n');
}
