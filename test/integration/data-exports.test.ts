/**
 * The data export (docs/accounting.md, "Data export"): every table as Parquet, partitioned by day, read back by
 * DuckDB with its totals equal to what the API answers.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { assertResponseContract } from '../support/response-contract';
import { creditBalanceOf } from '../support/route-fixtures/credits';
import { subscriptionOf } from '../support/route-fixtures/subscriptions';

let api: TestApi;
let client: Client;
let dir: string;
let duckdb: DuckDBConnection;
const HOUR = 3_600_000;

beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
  dir = mkdtempSync(join(tmpdir(), 'data-export-'));
  duckdb = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(async () => {
  duckdb.closeSync();
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

async function download(url: string): Promise<Buffer> {
  const response = await fetch(`${api.url}${url}`, { headers: { authorization: `Bearer ${client.token}` } });
  const bytes = Buffer.from(await response.arrayBuffer());
  assertResponseContract('GET', url, response.status, response.headers.get('content-type'), bytes.toString('latin1'));
  expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/vnd.apache.parquet']);
  return bytes;
}

/** One number from DuckDB over a table's files (Hive partitions: the `date` column comes from the path). */
async function duck(sql: string): Promise<number> {
  const rows = (await duckdb.runAndReadAll(sql)).getRows();
  return Number(rows[0]![0] ?? 0);
}
const table = (name: string) => `read_parquet('${dir}/table=${name}/*/*.parquet', hive_partitioning = true)`;

describe('data export', () => {
  it('writes every table as date-partitioned Parquet that DuckDB reads, with the totals the API shows', async () => {
    await withEntity(client);
    const buyers = await Promise.all(['Ada', 'Bob'].map(async (name) => (await client.post('/v1/customers', { name, currency: 'EUR', billing_address: { country: 'FR' } })).body));
    const invoices = [];
    for (const [i, buyer] of buyers.entries()) {
      invoices.push((await client.post('/v1/invoices', { customer_id: buyer.id, status: 'to_pay', line_items: [{ name: 'Plan', unit_amount: 10_000 + i }, { name: 'Seats', unit_amount: 2_500, units_count: 3 }] })).body);
    }
    await client.post(`/v1/invoices/${invoices[0].id}/transactions`, { amount: invoices[0].amount_due });
    await client.post(`/v1/invoices/${invoices[0].id}/credit-notes`, { amount: 4_000 });
    await client.post(`/v1/invoices/${invoices[1].id}/transactions`, { amount: 1_234 });
    const wallet = (await client.post('/v1/wallets', { customer_id: buyers[1].id })).body;
    await client.post(`/v1/wallets/${wallet.id}/load`, { type: 'free', amount: 777 });
    await subscriptionOf(client);
    const credits = await creditBalanceOf(client, 120);
    const meter = (await client.post('/v1/aggregators', { name: 'calls', event_type: 'api_call', operation: 'sum', property: 'units' })).body;
    const now = Date.now();
    await client.post('/v1/events/batch', [1, 2, 3].map((n) => ({ customer_id: buyers[0].id, event_type: 'api_call', timestamp: new Date(now - n * HOUR).toISOString(), record: { id: `e-${n}`, units: n * 10 } })));
    await runDueWork(new Date(), { workspaces: new Set([client.workspace]) }); // the subscription's first billing, before the export
    await api.events.settle();

    const today = new Date(now).toISOString().slice(0, 10);
    const yesterday = new Date(now - 24 * HOUR).toISOString().slice(0, 10);
    const asked = await client.post('/v1/exports', { kind: 'data', format: 'parquet', period: { from: yesterday, to: today } });
    expect(asked.status).toBe(202);
    await runDueWork(new Date(), { workspaces: new Set([client.workspace]) });
    const done = (await client.get(`/v1/exports/${asked.body.id}`)).body;
    expect(done).toMatchObject({ status: 'completed', error: null });
    const names = done.files.map((f: { name: string }) => f.name);
    for (const t of ['customers', 'subscriptions', 'credit_transactions', 'invoices', 'credit_notes', 'invoice_lines', 'transactions', 'wallet_transactions', 'usage_aggregates']) {
      expect(names.filter((n: string) => n.startsWith(`table=${t}/date=`) && n.endsWith('/part-0.parquet')).length).toBeGreaterThan(0);
    }
    for (const file of done.files) {
      const path = join(dir, file.name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, await download(file.download_url));
    }

    type Listed = { type: string; emitted_at: string; total_amount: number; amount_paid: number; line_items: { amount: number }[]; transactions: { amount: number; type: string }[] };
    // A document belongs to the day of its emission.
    const listed = ((await client.get('/v1/invoices?take=100')).body.data as Listed[]).filter((i) => i.emitted_at.slice(0, 10) >= yesterday && i.emitted_at.slice(0, 10) <= today);
    const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
    const ofType = (type: string) => listed.filter((i) => i.type === type);
    expect(await duck(`select count(*) from ${table('customers')}`)).toBe((await client.get('/v1/customers')).body.meta.total);
    expect(await duck(`select sum(total_amount) from ${table('invoices')}`)).toBe(sum(ofType('invoice').map((i) => i.total_amount)));
    expect(await duck(`select sum(amount_paid) from ${table('invoices')}`)).toBe(sum(ofType('invoice').map((i) => i.amount_paid)));
    expect(await duck(`select sum(total_amount) from ${table('credit_notes')}`)).toBe(sum(ofType('credit_note').map((i) => i.total_amount)));
    expect(await duck(`select sum(amount) from ${table('invoice_lines')}`)).toBe(sum(listed.flatMap((i) => i.line_items.map((l) => l.amount))));
    expect(await duck(`select sum(amount) from ${table('transactions')} where type = 'payment'`)).toBe(sum(listed.flatMap((i) => i.transactions.filter((t) => t.type === 'payment').map((t) => t.amount))));
    const walletLedger = (await client.get(`/v1/wallets/${wallet.id}/transactions`)).body.data as { amount: number }[];
    expect(await duck(`select sum(amount) from ${table('wallet_transactions')}`)).toBe(sum(walletLedger.map((t) => t.amount)));
    const usage = (await client.get(`/v1/customers/${buyers[0].id}/usage?aggregator_id=${meter.id}&from=${yesterday}T00:00:00.000Z&to=${new Date(now + HOUR).toISOString()}`)).body;
    expect(await duck(`select sum("sum") from ${table('usage_aggregates')}`)).toBe(usage.value);
    const subscriptions = (await client.get('/v2/subscriptions')).body.meta.total;
    expect(await duck(`select count(*) from ${table('subscriptions')}`)).toBe(subscriptions);
    const creditLedger = (await client.get(`/v1/customers/${credits.customerId}/credits/${credits.productId}/transactions`)).body.data as { credit_count: number }[];
    expect(await duck(`select sum(credit_count) from ${table('credit_transactions')}`)).toBe(sum(creditLedger.map((t) => t.credit_count)));
    expect(await duck(`select count(distinct "date") from ${table('invoices')}`)).toBe(1);
    expect(await duck(`select count(*) from ${table('invoices')} where record::json->>'customer_id' = customer_id`)).toBe(ofType('invoice').length);
  }, 90_000); // some thirty requests, a due run and ten DuckDB reads: under a loaded machine's test timeout
});
