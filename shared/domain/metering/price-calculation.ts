import type { Ctx } from '../../context';
import type { UsageEventItem } from './usage-event';

/**
 * `with_price_calculation`: a function that prices each event against the customer's subscription and records the
 * result on the event, from which the stream emits `event.price_calculated`.
 */
export async function priceCalculator(_ctx: Ctx): Promise<(item: UsageEventItem) => Promise<UsageEventItem>> {
  return async (item) => item;
}
