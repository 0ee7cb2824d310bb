/**
 * Commitments (docs/usage-billing.md, "Commitments"): what a customer committed to pay whatever it uses. Pure.
 * - A metered product's `min_committed_count`: a period whose usage falls short of it is billed the committed count's
 *   price less the usage's price, as a true-up line beside the usage line.
 * - The subscription's `minimum_invoice_fee` (Hyperline's name): a billing date whose invoice, with the threshold
 *   invoices of the period it closes, totals less is billed the difference as a true-up line.
 * - The subscription's `prepaid_commit`: paid in advance, drawn down by usage (prepaid-commit.ts).
 */
import { newId } from '../../ids';
import type { PricedLine } from '../invoices/amounts';
import { computePrice } from '../pricing/compute-price';
import { line, type Period } from './lines';
import { meteredAmount, meteredUnits, unitNameOf, type MeteredUsage } from './metered';
import type { StoredSubscriptionProduct } from './subscription';

/** The true-up of a metered product's committed count over a period, if its usage fell short (bps has no count). */
export function committedCountLine(p: StoredSubscriptionProduct, period: Period, usage: MeteredUsage): PricedLine | undefined {
  const committed = p.min_committed_count;
  if (!committed || p.price.type === 'bps') return undefined;
  const used = meteredUnits(p.price, usage);
  if (used >= committed) return undefined;
  const amount = computePrice(p.price, { quantity: committed }).amount - meteredAmount(p.price, usage);
  if (amount <= 0) return undefined;
  const unit = unitNameOf(p);
  return line(p, period, { units: committed - used, amount, name: `${p.name} (minimum commitment)`, description: `${committed} ${unit} committed, ${used} ${unit} used` });
}

/** The true-up line of `minimum_invoice_fee` when `billed` (this invoice and the period's threshold invoices) is short of it. */
export function minimumFeeLine(minimum: number | null | undefined, billed: number, period: Period): PricedLine | undefined {
  if (!minimum || billed >= minimum) return undefined;
  return termLine('Minimum commitment', `Minimum of ${minimum} per period, ${billed} invoiced`, minimum - billed, period);
}

/** A line of the subscription's billing terms (no product): a true-up, a prepaid commit (prepaid-commit.ts). */
export function termLine(name: string, description: string, amount: number, period: Period): PricedLine {
  return {
    id: newId('ili'), name, description, entry_type: 'custom',
    product_id: null, product_type: null, price_id: null, units_count: 1, unit_amount: amount, gross: amount, tax_rate_id: null,
    period_starts_at: period.starts_at, period_ends_at: period.ends_at, revenue_type: 'recurring', revenue_interval_count: null, revenue_interval_period: null,
    display_unit_amount: false, display_service_period: true, original_line_item_id: null,
  };
}
