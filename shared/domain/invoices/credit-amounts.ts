import { RuleViolation } from '../../errors';
import { invoiceTotals } from '../../money/amounts';
import { scaledRate } from '../../money/tax-rate';
import { PERCENT_DENOMINATOR, roundHalfUp } from '../pricing/arithmetic';
import { amountStep } from './amounts';
import type { InvoiceItem, InvoiceLineItem } from './invoice';

export interface CreditRequest {
  /** Tax included, spread over the lines by what each has left. */
  amount?: number;
  line_items?: { line_item_id: string; amount?: number }[];
}

const exceeds = (what: string, asked: number, left: number) =>
  new RuleViolation('credit_exceeds_uncredited', `${what}: ${asked} asked, only ${left} left uncredited.`);

const uncreditedOf = (invoice: InvoiceItem, line: InvoiceLineItem) => line.amount - (invoice.credited_by_line[line.id] ?? 0);

/** What each line gives back (tax included), by line id: never more than the line, nor the invoice, has uncredited. */
export function creditedParts(invoice: InvoiceItem, request: CreditRequest): Map<string, number> {
  const left = invoice.total_amount - invoice.credited_amount;
  const step = amountStep(invoice.currency);
  const asked = [request.amount, ...(request.line_items ?? []).map((l) => l.amount)];
  if (asked.some((a) => a !== undefined && a % step !== 0)) {
    throw new RuleViolation('amount_precision', `${invoice.currency} amounts are whole multiples of ${step} minor units (EN 16931 carries at most 2 decimals).`);
  }
  if (request.line_items) {
    const parts = new Map<string, number>();
    for (const asked of request.line_items) {
      const line = invoice.line_items.find((l) => l.id === asked.line_item_id);
      if (!line) throw new RuleViolation('line_item_not_found', `Invoice '${invoice.id}' has no line item '${asked.line_item_id}'.`);
      const available = uncreditedOf(invoice, line) - (parts.get(line.id) ?? 0);
      const amount = asked.amount ?? available;
      if (amount > available) throw exceeds(`Line item '${line.id}'`, amount, available);
      parts.set(line.id, (parts.get(line.id) ?? 0) + amount);
    }
    return parts;
  }
  const amount = request.amount ?? left;
  if (amount > left) throw exceeds(`Invoice '${invoice.id}'`, amount, left);
  const available = invoice.line_items.map((l) => [l.id, uncreditedOf(invoice, l)] as const);
  // Invoices made before amounts came in steps may hold other amounts: those are spread in minor units.
  const unit = available.every(([, a]) => a % step === 0) && left % step === 0 ? step : 1;
  const coarse = spread(amount / unit, available.map(([id, a]) => [id, a / unit] as const), left / unit);
  return new Map([...coarse].map(([id, part]) => [id, part * unit]));
}

/** Largest-remainder split of `amount` over the lines in proportion to what they have left (which sums to `left`). */
function spread(amount: number, lines: readonly (readonly [string, number])[], left: number): Map<string, number> {
  if (left === 0) return new Map();
  const [total, whole] = [BigInt(left), BigInt(amount)];
  const exact = lines.map(([id, available]) => ({ id, floor: (whole * BigInt(available)) / total, remainder: (whole * BigInt(available)) % total }));
  let rest = whole - exact.reduce((sum, e) => sum + e.floor, 0n);
  for (const e of [...exact].sort((a, b) => (b.remainder > a.remainder ? 1 : b.remainder < a.remainder ? -1 : 0))) {
    if (rest === 0n) break;
    e.floor += 1n;
    rest -= 1n;
  }
  return new Map(exact.filter((e) => e.floor > 0n).map((e) => [e.id, Number(e.floor)]));
}

/**
 * The tax in each rate's part (tax included): part × rate / (100 + rate), rounded once per rate on the sum (the VAT
 * breakdown, BR-S-09), then spread over its lines by largest remainder; in steps of `step` minor units.
 */
function creditTaxes(lines: readonly { id: string; part: number; rate: number }[], step: number): Map<string, number> {
  const taxes = new Map<string, number>();
  const rates = new Set(lines.map((l) => l.rate));
  for (const rate of rates) {
    const group = lines.filter((l) => l.rate === rate);
    const scaled = scaledRate(rate);
    const den = PERCENT_DENOMINATOR + scaled;
    const unit = group.every((l) => l.part % step === 0) ? step : 1;
    const exact = group.map((l, i) => ({ i, id: l.id, num: BigInt(l.part / unit) * scaled }));
    const total = roundHalfUp(exact.reduce((sum, e) => sum + e.num, 0n), den);
    const floors = exact.map((e) => ({ ...e, floor: e.num / den, remainder: e.num % den }));
    let left = total - floors.reduce((sum, f) => sum + f.floor, 0n);
    for (const f of [...floors].sort((a, b) => (b.remainder > a.remainder ? 1 : b.remainder < a.remainder ? -1 : a.i - b.i))) {
      if (left === 0n) break;
      f.floor += 1n;
      left -= 1n;
    }
    for (const f of floors) taxes.set(f.id, Number(f.floor) * unit);
  }
  return taxes;
}

/**
 * The credit note's lines: each takes back part of an original line (tax included), the tax of each rate computed on
 * the rate's whole part (`creditTaxes`), the rest excluding tax; so each line still holds
 * amount = amount_excluding_tax + tax_amount, and the totals are their sums. Crediting a whole invoice gives back
 * exactly its tax per rate.
 */
export function creditLines(invoice: InvoiceItem, parts: Map<string, number>, newLineId: () => string) {
  const credited = invoice.line_items.flatMap((line) => (parts.get(line.id) ? [{ line, part: parts.get(line.id)! }] : []));
  const taxes = creditTaxes(credited.map(({ line, part }) => ({ id: line.id, part, rate: line.tax_rate })), amountStep(invoice.currency));
  const lines = credited.map(({ line, part }): InvoiceLineItem => {
    const tax = taxes.get(line.id)!;
    return {
      ...line, id: newLineId(), original_line_item_id: line.id, units_count: 1, unit_amount: part - tax, amount: part, amount_excluding_tax: part - tax,
      tax_amount: tax, discount_amount: 0, discount_percent: null,
    };
  });
  return { lines, totals: invoiceTotals(lines) };
}
