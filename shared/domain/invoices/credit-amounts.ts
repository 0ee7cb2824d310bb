import { RuleViolation } from '../../errors';
import { invoiceTotals } from '../../money/amounts';
import { roundHalfUp } from '../pricing/arithmetic';
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
  return spread(amount, invoice.line_items.map((l) => [l.id, uncreditedOf(invoice, l)] as const), left);
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
 * The credit note's lines: each takes back part of an original line, its tax in the original's proportion
 * (round half-up(part × line tax / line amount)), the rest excluding tax; so each line still holds
 * amount = amount_excluding_tax + tax_amount, and the totals are their sums.
 */
export function creditLines(invoice: InvoiceItem, parts: Map<string, number>, newLineId: () => string) {
  const lines = invoice.line_items.flatMap((line): InvoiceLineItem[] => {
    const part = parts.get(line.id);
    if (!part) return [];
    const tax = line.amount === 0 ? 0 : Number(roundHalfUp(BigInt(part) * BigInt(line.tax_amount), BigInt(line.amount)));
    return [{
      ...line, id: newLineId(), original_line_item_id: line.id, units_count: 1, unit_amount: part - tax, amount: part, amount_excluding_tax: part - tax,
      tax_amount: tax, discount_amount: 0, discount_percent: null,
    }];
  });
  return { lines, totals: invoiceTotals(lines) };
}
