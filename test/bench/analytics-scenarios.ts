/**
 * Analytics reads as the data grows (issue 33): `GET /v1/analytics/{metric}` over a year, monthly, in a workspace of
 * 1,000 invoices and one of 100,000, beside its floor (the Queries it makes, one per partition of the family, sent directly). The day items are
 * seeded as the stream would have left them (docs/analytics.md, "Benchmark"): each invoice's facts (facts.ts, the
 * stream's own function) ADDed per family, day and entity, written with BatchWriteItem instead of 100,000 invoices
 * created through the API. Imports the shared table client: import only once DYNAMODB_ENDPOINT is set.
 */
import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { signToken, type LocalKeys } from '../../lib/local/jwt';
import { makeCtx } from '../../shared/context';
import { putItems } from '../../shared/db/batch-write';
import { db, dynamoCallCount, tableName } from '../../shared/db/client';
import { deltaKey, invoiceFacts, type Delta, type InvoiceFacts } from '../../shared/domain/analytics/facts';
import { ANALYTICS_SPREAD, analyticsKey, analyticsPartitions, REVENUE_DAY } from '../../shared/domain/analytics/items';
import { apiClient } from './http';
import { measureRotating, type VariantResult } from './latency';

export interface AnalyticsResults {
  sizes: { invoices: number; items: number }[];
  /** By variant name: `invoiced <n>`, `mrr <n>`, `floor <n>`. */
  results: Map<string, VariantResult>;
}

const YEAR = { from: '2026-01-01', to: '2026-12-31' };
const DAY_MS = 86_400_000;

/** The `n`th of `count` invoices of the year: spread evenly over its days; most paid, one in ten prepaid for a year. */
function invoiceOf(n: number, count: number): InvoiceFacts {
  const emitted = new Date(Date.parse(YEAR.from) + Math.floor((n * 365) / count) * DAY_MS).toISOString();
  const paid = n % 10 < 7;
  const months = n % 10 === 9 ? 12 : 1;
  const end = new Date(Date.parse(emitted) + months * 30 * DAY_MS).toISOString();
  return {
    type: 'invoice', status: paid ? 'paid' : 'to_pay', currency: 'EUR', invoicing_entity_id: 'ent_bench', total_amount: 12_000, amount_due: paid ? 0 : 12_000,
    emitted_at: emitted, due_at: new Date(Date.parse(emitted) + 30 * DAY_MS).toISOString(),
    line_items: [{ amount_excluding_tax: 10_000, period_starts_at: emitted, period_ends_at: end }],
    transactions: paid ? ([{ type: 'payment', status: 'succeeded', amount: 12_000, currency: 'EUR', process_at: emitted }] as InvoiceFacts['transactions']) : [],
  };
}

/** The day items `count` invoices leave behind, with a subscription change on each day that has invoices; returns how many. */
async function seed(workspace: string, count: number): Promise<number> {
  const ctx = makeCtx(workspace, 'bench');
  const items = new Map<string, Delta>();
  const add = (d: Delta) => {
    const entry = items.get(deltaKey(d)) ?? { ...d, values: {} };
    for (const [name, value] of Object.entries(d.values)) entry.values[name] = (entry.values[name] ?? 0) + value;
    items.set(deltaKey(d), entry);
  };
  for (let n = 0; n < count; n++) {
    const invoice = invoiceOf(n, count);
    invoiceFacts(invoice).forEach(add);
    if (!items.has(deltaKey({ family: 'MRR', currency: 'EUR', entity: 'ent_bench', day: invoice.emitted_at.slice(0, 10) }))) add({ family: 'MRR', currency: 'EUR', entity: 'ent_bench', day: invoice.emitted_at.slice(0, 10), values: { mrr: 10_000, new: 10_000, active_customers: 1, active_subscriptions: 1 } });
  }
  // Each day item on one of the shards changes start on, hence over the family's partitions, as the stream leaves them.
  const rows = [...items.values()].map((d, i) => ({ ...analyticsKey(ctx, d, i % ANALYTICS_SPREAD), _type: REVENUE_DAY, day: d.day, entity: d.entity, ...d.values }));
  await putItems(rows);
  return rows.length;
}

export async function measureAnalytics(options: { baseUrl: string; keys: LocalKeys; sizes: number[]; counts: { warmup: number; measured: number } }): Promise<AnalyticsResults> {
  const sizes: AnalyticsResults['sizes'] = [];
  const variants = [];
  for (const invoices of options.sizes) {
    const workspace = `ws_bench_an_${randomUUID().slice(0, 8)}`;
    console.error(`Seeding the analytics of ${invoices.toLocaleString('en-US')} invoices…`);
    sizes.push({ invoices, items: await seed(workspace, invoices) });
    const call = apiClient(options.baseUrl, await signToken(options.keys, { workspace, scope: 'read' }));
    const range = `currency=EUR&from=${YEAR.from}&to=${YEAR.to}&interval=month`;
    const partitions = analyticsPartitions(makeCtx(workspace, 'bench'), 'BIL', 'EUR');
    variants.push(
      { name: `invoiced ${invoices}`, run: () => call('GET', `/v1/analytics/invoiced?${range}`, 200) },
      { name: `mrr ${invoices}`, run: () => call('GET', `/v1/analytics/mrr?${range}`, 200) },
      {
        name: `floor ${invoices}`,
        run: () => Promise.all(partitions.map((pk) => db.send(new QueryCommand({
          TableName: tableName(), KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
          ExpressionAttributeValues: { ':pk': pk, ':a': YEAR.from, ':b': `${YEAR.to}#~` },
        })))),
      },
    );
  }
  console.error(`Measuring GET /v1/analytics/{metric} at ${options.sizes.join(' and ')} invoices (${options.counts.warmup} warm-up + ${options.counts.measured} rounds of ${variants.length})…`);
  return { sizes, results: await measureRotating(variants, options.counts, dynamoCallCount) };
}
