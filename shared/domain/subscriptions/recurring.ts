import { computePrice } from '../pricing/compute-price';
import type { RecurringInterval, StoredSubscriptionProduct } from './subscription';

/** A product billed by its usage (its aggregator's value each period), not by its quantity. */
export const isMetered = (p: Pick<StoredSubscriptionProduct, 'aggregator_id' | 'fee_timing'>): boolean => !!p.aggregator_id && p.fee_timing === 'in_arrears';

/** What a period of `products` bills at their quantities (recurring, not metered: usage is billed as it comes). */
export const periodAmount = (products: StoredSubscriptionProduct[]): number =>
  products.filter((p) => p.billing_interval.period !== 'once' && !isMetered(p) && p.quantity > 0).reduce((sum, p) => sum + computePrice(p.price, { quantity: p.quantity }).amount, 0);

const PER_YEAR = { days: 365, weeks: 52, months: 12, years: 1 } as const;

/** How many periods of `interval` a year holds (a 3-month interval: 4). */
export const periodsPerYear = (interval: RecurringInterval): number => PER_YEAR[interval.period] / interval.count;
