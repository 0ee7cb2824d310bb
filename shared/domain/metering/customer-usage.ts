import { eachLimited } from '../../concurrency';
import type { Ctx } from '../../context';
import { InvalidRequest } from '../../errors';
import { MAX_USAGE_DAYS } from '../../schemas/bounds';
import { findCustomerItem } from '../customers/read';
import { oneOf } from '../hyperline/aliases';
import { getAggregator, listAggregatorItems } from './aggregator-read';
import { readUsage } from './usage-read';

export interface UsageQuery {
  aggregator_id?: string;
  from?: string;
  to?: string;
  /** Hyperline's names of `from` and `to`. */
  start_date?: string;
  end_date?: string;
}

/** Aggregators read at once for the list: each is one bucket Query plus, for partial hours, the event index's shards. */
const AGGREGATOR_READS = 8;

/**
 * `GET /v1/customers/{id}/usage`. With `aggregator_id`: that aggregator's usage over [from, to) with its days (and
 * Hyperline's `total`, `count`, `period_start`, `period_end` beside ours). Without: Hyperline's list, one
 * `{aggregator_id, name, unit_name, total, count}` per live aggregator of the workspace.
 */
export async function getCustomerUsage(ctx: Ctx, customerId: string, query: UsageQuery) {
  const { from, to } = periodOf(query);
  return query.aggregator_id ? aggregatorUsage(ctx, customerId, query.aggregator_id, from, to) : usageRows(ctx, customerId, from, to);
}

/** One aggregator's usage of the customer over [from, to) (ISO instants), with its days. */
export async function aggregatorUsage(ctx: Ctx, customerId: string, aggregatorId: string, from: string, to: string) {
  // Both read at once; when both fail, the path's customer speaks first (404 not_found), whichever answered first.
  const [customerRead, aggregatorRead] = await Promise.allSettled([findCustomerItem(ctx, customerId), getAggregator(ctx, aggregatorId)]);
  if (customerRead.status === 'rejected') throw customerRead.reason;
  if (aggregatorRead.status === 'rejected') throw aggregatorRead.reason;
  const [customer, aggregator] = [customerRead.value, aggregatorRead.value];
  const usage = await readUsage(ctx, customer.id, aggregator, from, to);
  return {
    customer_id: customer.id, aggregator_id: aggregator.id, operation: aggregator.operation, unit_name: aggregator.unit_name, from, to, ...usage,
    total: usage.value, period_start: from, period_end: to,
  };
}

async function usageRows(ctx: Ctx, customerId: string, from: string, to: string) {
  const [customer, aggregators] = await Promise.all([findCustomerItem(ctx, customerId), listAggregatorItems(ctx)]);
  const rows = new Map<string, { aggregator_id: string; name: string; unit_name: string | null; total: number; count: number }>();
  await eachLimited(aggregators, AGGREGATOR_READS, async (aggregator) => {
    const { value, count } = await readUsage(ctx, customer.id, aggregator, from, to);
    rows.set(aggregator.id, { aggregator_id: aggregator.id, name: aggregator.name, unit_name: aggregator.unit_name, total: value, count });
  });
  return aggregators.map((a) => rows.get(a.id)!);
}

function periodOf(query: UsageQuery): { from: string; to: string } {
  const [rawFrom, rawTo] = [oneOf(query.from, query.start_date, '`from` and `start_date`'), oneOf(query.to, query.end_date, '`to` and `end_date`')];
  if (!rawFrom || !rawTo) {
    const missing = !rawFrom ? 'from' : 'to';
    throw new InvalidRequest(`Invalid query: query.${missing} (or ${missing === 'from' ? 'start_date' : 'end_date'}) is required.`, [{ path: `query.${missing}`, message: 'is required' }]);
  }
  const from = new Date(rawFrom).toISOString();
  const to = new Date(rawTo).toISOString();
  if (from >= to) throw new InvalidRequest('Invalid query: query.to must be later than query.from.', [{ path: 'query.to', message: 'must be later than from' }]);
  if (Date.parse(to) - Date.parse(from) > MAX_USAGE_DAYS * 86_400_000) {
    throw new InvalidRequest(`Invalid query: a usage period spans at most ${MAX_USAGE_DAYS} days.`, [{ path: 'query.to', message: `must be at most ${MAX_USAGE_DAYS} days after from` }]);
  }
  return { from, to };
}
