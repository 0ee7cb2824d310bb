import { h, replace } from '../dom';
import { currencyDigits, toMinor } from '../format';
import { t, type MessageKey } from '../i18n';
import { fieldInput } from '../ui';

export type PriceType = 'fee' | 'volume' | 'packaged' | 'bulk' | 'bps' | 'bundle';

/** Which price types a product type takes (docs/catalog.md; the API refuses the others). */
export const PRICE_TYPES: Record<string, PriceType[]> = {
  flat_fee: ['fee'],
  seat: ['volume', 'packaged', 'bulk'],
  dynamic: ['volume', 'packaged', 'bulk', 'bps'],
  credit: ['bundle'],
};

type Column = { name: string; label: MessageKey; kind: 'amount' | 'integer' | 'percent'; optional?: boolean };
const TIER: Column[] = [
  { name: 'from', label: 'tierFrom', kind: 'integer' },
  { name: 'to', label: 'tierTo', kind: 'integer', optional: true },
  { name: 'amount', label: 'tierAmount', kind: 'amount' },
  { name: 'unit_count', label: 'tierUnits', kind: 'integer', optional: true },
];
/** The columns of one price of each type, as the API takes them (amounts typed in currency units). */
const COLUMNS: Record<PriceType, Column[]> = {
  fee: [{ name: 'amount', label: 'unitAmount', kind: 'amount' }],
  volume: TIER,
  packaged: TIER,
  bulk: TIER,
  bps: [TIER[0]!, TIER[1]!, { name: 'percentage', label: 'percentage', kind: 'percent' }, { name: 'per_unit_fee', label: 'perUnitFee', kind: 'amount', optional: true }],
  bundle: [{ name: 'amount', label: 'packAmount', kind: 'amount' }, { name: 'pack_size', label: 'packSize', kind: 'integer' }],
};

/** Prices as they are, for editing: their type (fixed once created) and their rows, amounts in minor units. */
export interface ExistingPrices {
  type: PriceType;
  currency: string;
  prices: Array<Record<string, unknown>>;
}

/** A member of an existing price as it is typed: amounts in currency units (`12.50`), the rest as they are. */
function typed(value: unknown, kind: Column['kind'], currency: string): string {
  if (value === null || value === undefined) return '';
  return kind === 'amount' ? (Number(value) / 10 ** currencyDigits(currency)).toFixed(currencyDigits(currency)) : String(value);
}

/**
 * The prices of a price configuration: one row per tier (or pack), a column per member, rows added and removed.
 * `read` turns the rows into the API's prices, or throws what is wrong with what was typed (nothing is sent). With
 * `existing`, the rows start as its prices and the type stays its own.
 */
export function priceEditor(productType: string, existing?: ExistingPrices) {
  const types = existing ? [existing.type] : (PRICE_TYPES[productType] ?? ['fee']);
  const typeField = fieldInput({ name: 'type', label: t('priceModel'), type: 'select', options: types.map((p): [string, string] => [p, t(`model_${p}`)]) });
  const select = typeField.querySelector('select')!;
  const body = h('tbody');
  const head = h('thead');
  const add = h('button', { type: 'button' }, t('addTier'));
  const remove = h('button', { type: 'button' }, t('removeTier'));
  const columns = () => COLUMNS[select.value as PriceType];
  const start = (index: number, c: Column) => (existing ? typed(existing.prices[index]?.[c.name], c.kind, existing.currency) : index === 0 && c.name === 'from' ? '1' : '');
  const row = (index: number) =>
    h('tr', {}, columns().map((c) => h('td', {}, h('input', { name: `${c.name}.${index}`, 'aria-label': t('tierField', { tier: index + 1, field: t(c.label) }), inputmode: c.kind === 'integer' ? 'numeric' : 'decimal', autocomplete: 'off', required: !c.optional, value: start(index, c) }))));
  const draw = () => {
    replace(head, h('tr', {}, columns().map((c) => h('th', { scope: 'col' }, t(c.label)))));
    replace(body, ...(existing?.prices.length ? existing.prices.map((_, i) => row(i)) : [row(0)]));
    const many = select.value !== 'fee';
    add.hidden = !many;
    remove.hidden = !many;
  };
  select.addEventListener('change', draw);
  add.addEventListener('click', () => body.append(row(body.rows.length)));
  remove.addEventListener('click', () => body.rows.length > 1 && body.lastElementChild!.remove());
  draw();
  const element = h(
    'fieldset',
    { class: 'prices' },
    h('legend', {}, t('prices')),
    typeField,
    h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': t('prices') }, h('table', {}, h('caption', { class: 'visually-hidden' }, t('prices')), head, body)),
    h('div', { class: 'toolbar' }, add, remove),
  );
  const read = (currency: string): Array<Record<string, number | null>> =>
    [...body.rows].map((tr, index) => {
      const price: Record<string, number | null> = {};
      for (const [i, c] of columns().entries()) {
        const text = tr.cells[i]!.querySelector('input')!.value.trim();
        if (!text) {
          if (c.name === 'to') price.to = null;
          continue;
        }
        const value = c.kind === 'amount' ? toMinor(text, currency) : c.kind === 'percent' ? Number(text.replace(',', '.')) : /^\d+$/.test(text) ? Number(text) : undefined;
        if (value === undefined || Number.isNaN(value)) throw new Error(t('badTierValue', { tier: index + 1, field: t(c.label), currency }));
        price[c.name] = value;
      }
      return price;
    });
  return { element, type: () => select.value as PriceType, read };
}
