import type { Ctx } from '../../context';
import { InvalidRequest } from '../../errors';
import { MAX_USAGE_DAYS } from '../../schemas/metering';
import { findCustomerItem } from '../customers/read';
import { getAggregator } from './aggregator-read';
import { readUsage } from './usage-read';

export interface UsageQuery {
  aggregator_id: string;
  from: string;
  to: string;
}

/** `GET /v1/customers/{id}/usage`: the aggregated usage of one aggregator over [from, to), with its days. */
export async function getCustomerUsage(ctx: Ctx, customerId: string, query: UsageQuery) {
  const from = new Date(query.from).toISOString();
  const to = new Date(query.to).toISOString();
  if (from >= to) throw new InvalidRequest('Invalid query: query.to must be later than query.from.', [{ path: 'query.to', message: 'must be later than from' }]);
  if (Date.parse(to) - Date.parse(from) > MAX_USAGE_DAYS * 86_400_000) {
    throw new InvalidRequest(`Invalid query: a usage period spans at most ${MAX_USAGE_DAYS} days.`, [{ path: 'query.to', message: `must be at most ${MAX_USAGE_DAYS} days after from` }]);
  }
  // Both read at once; when both fail, the path's customer speaks first (404 not_found), whichever answered first.
  const [customerRead, aggregatorRead] = await Promise.allSettled([findCustomerItem(ctx, customerId), getAggregator(ctx, query.aggregator_id)]);
  if (customerRead.status === 'rejected') throw customerRead.reason;
  if (aggregatorRead.status === 'rejected') throw aggregatorRead.reason;
  const [customer, aggregator] = [customerRead.value, aggregatorRead.value];
  const usage = await readUsage(ctx, customer.id, aggregator, from, to);
  return {
    customer_id: customer.id, aggregator_id: aggregator.id, operation: aggregator.operation, unit_name: aggregator.unit_name, from, to, ...usage,
  };
}
