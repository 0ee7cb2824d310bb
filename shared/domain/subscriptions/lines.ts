/** The invoice lines a subscription issues: billing dates (billing.ts), prorations and final invoices (proration.ts). */
import { newId } from '../../ids';
import type { PricedLine } from '../invoices/amounts';
import { computePrice } from '../pricing/compute-price';
import { roundHalfUp } from '../pricing/arithmetic';
import type { StoredSubscriptionProduct } from './subscription';

/** A service period [starts_at, ends_at). */
export interface Period {
  starts_at: string;
  ends_at: string;
}

const unitAmountOf = (amount: number, units: number): number => (units > 0 ? Number(roundHalfUp(BigInt(amount), BigInt(units))) : amount);

/** A line priced other than at the product's fixed quantity (metered usage, late usage, a prorated part). */
export interface Charge {
  units: number;
  amount: number;
  name?: string;
  description: string | null;
}

/** The invoice line of a subscription product over `period` (null: a one-off), at its quantity or as `charge` says. */
export function line(product: StoredSubscriptionProduct, period: Period | null, charge?: Charge): PricedLine {
  const units = charge?.units ?? product.quantity;
  const amount = charge?.amount ?? computePrice(product.price, { quantity: product.quantity }).amount;
  const once = product.billing_interval.period === 'once';
  const interval = product.billing_interval as { period: string; count?: number };
  return {
    id: newId('ili'),
    name: charge?.name ?? product.name,
    description: charge ? charge.description : product.description,
    entry_type: 'product',
    product_id: product.product_id,
    product_type: product.product_type,
    price_id: product.price.prices[0]?.id ?? null,
    units_count: units,
    unit_amount: unitAmountOf(amount, units),
    gross: amount,
    tax_rate_id: null,
    period_starts_at: period?.starts_at ?? null,
    period_ends_at: period?.ends_at ?? null,
    revenue_type: once ? 'one_off' : product.fee_timing === 'in_arrears' ? 'usage' : 'recurring',
    revenue_interval_count: once ? null : (interval.count ?? null),
    revenue_interval_period: once ? null : interval.period,
    display_unit_amount: product.price.type === 'fee',
    display_service_period: period !== null,
    original_line_item_id: null,
  };
}

