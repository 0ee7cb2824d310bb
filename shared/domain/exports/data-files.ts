import { parquetWriteBuffer } from 'hyparquet-writer';
import type { Ctx } from '../../context';
import { batchGet } from '../../db/batch-get';
import { pushTo } from '../../concurrency';
import { bucketPartition, type BucketItem } from '../metering/bucket-item';
import type { CreditTransactionItem } from '../credits/credit';
import type { CustomerItem } from '../customers/customer';
import type { InvoiceItem } from '../invoices/invoice';
import type { SubscriptionItem } from '../subscriptions/subscription';
import type { WalletItem } from '../wallets/wallet';
import type { WalletTransactionItem } from '../wallets/transaction';
import { TABLES, type Column, type Line, type Table, type Transaction, type UsageRow } from './data-tables';
import { periodEnd, type ExportItem, type FileWriter } from './export';
import { aggregatorItems, creditBalanceKeys, ledgersOf, listedItems, partitionItems } from './sources';

const cell = (type: Column<unknown>['type'], value: unknown): unknown => {
  if (value === null || value === undefined) return null;
  if (type === 'INT64') return BigInt(value as number);
  if (type === 'TIMESTAMP') return new Date(value as string);
  if (type === 'DOUBLE') return Number(value);
  return typeof value === 'string' ? value : String(value);
};

/** One Parquet file of rows, column by column. */
export function parquetOf<R>(table: Table<R>, rows: readonly R[]): Uint8Array {
  const columnData = table.columns.map((c) => ({ name: c.name, type: c.type, data: rows.map((r) => cell(c.type, c.of(r))) }));
  return new Uint8Array(parquetWriteBuffer({ columnData: columnData as never }));
}

/** The hour aggregates of every customer and aggregator within the period (an hour's shard items added up). */
async function usageRows(ctx: Ctx, customers: readonly CustomerItem[], from: string, to: string): Promise<UsageRow[]> {
  const aggregators = await aggregatorItems(ctx);
  const pairs = customers.flatMap((c) => aggregators.map((a) => bucketPartition(ctx, c.id, String(a.id))));
  const rows = new Map<string, UsageRow>();
  for (const pk of pairs) {
    for (const b of await partitionItems<BucketItem>(pk, 'H#', [`H#${from}`, `H#${to}~`])) {
      const key = `${b.customer_id}|${b.aggregator_id}|${b.hour}`;
      const row = rows.get(key) ?? { customer_id: b.customer_id, aggregator_id: b.aggregator_id, hour: b.hour, count: 0, sum: 0 };
      rows.set(key, { ...row, count: row.count + b.count, sum: row.sum + b.sum });
    }
  }
  return [...rows.values()];
}

/**
 * A data export: each table's rows of the period's days, one Parquet file per table and day
 * (`table=<name>/date=<YYYY-MM-DD>/part-0.parquet`). A row is placed by its creation day (an invoice: its
 * emission; a transaction: its processing; usage: its hour) and holds its state at the time of the export.
 */
export async function writeDataFiles(ctx: Ctx, item: ExportItem, write: FileWriter): Promise<void> {
  const before = periodEnd(item.period.to);
  const [customers, subscriptions, documents, wallets] = await Promise.all([
    listedItems<CustomerItem>(ctx, 'CUS', before), listedItems<SubscriptionItem>(ctx, 'SUB', before),
    listedItems<InvoiceItem>(ctx, 'INV', before), listedItems<WalletItem>(ctx, 'WAL', before),
  ]);
  const entity = item.invoicing_entity_id;
  const ofEntity = <R extends { invoicing_entity_id?: string | null }>(rows: R[]) => (entity ? rows.filter((r) => r.invoicing_entity_id === entity) : rows);
  const docs = ofEntity(documents);
  const customerIds = new Set(ofEntity(customers).map((c) => c.id));
  const balances = (await Promise.all([...customerIds].map((id) => creditBalanceKeys(ctx, id)))).flat();
  const [walletTransactions, creditTransactions, usage] = await Promise.all([
    ledgersOf<WalletTransactionItem>(wallets.filter((w) => customerIds.has(w.customer_id)).map((w) => w.pk), 'TX#'),
    ledgersOf<CreditTransactionItem>((await batchGet(balances)).map((b) => String(b.pk)), 'TX#'),
    usageRows(ctx, ofEntity(customers), item.period.from, item.period.to),
  ]);
  const outputs: [Table<never>, unknown[]][] = [
    [TABLES.customers, ofEntity(customers)],
    [TABLES.subscriptions, subscriptions.filter((s) => customerIds.has(s.customer_id))],
    [TABLES.invoices, docs.filter((d) => d.type !== 'credit_note')],
    [TABLES.credit_notes, docs.filter((d) => d.type === 'credit_note')],
    [TABLES.invoice_lines, docs.flatMap((d) => d.line_items.map((l): Line => ({ ...l, invoice: d })))],
    [TABLES.transactions, docs.flatMap((d) => d.transactions.map((t): Transaction => ({ ...t, invoice: d })))],
    [TABLES.wallet_transactions, walletTransactions],
    [TABLES.credit_transactions, creditTransactions],
    [TABLES.usage_aggregates, usage],
  ] as never;
  for (const [table, rows] of outputs) {
    const byDay = new Map<string, unknown[]>();
    for (const row of rows) {
      const day = (table.day as (r: unknown) => string | null | undefined)(row);
      if (day && day >= item.period.from && day <= item.period.to) pushTo(byDay, day, row);
    }
    for (const [day, dayRows] of [...byDay].sort(([a], [b]) => (a < b ? -1 : 1))) {
      await write(`table=${table.name}/date=${day}/part-0.parquet`, parquetOf(table as Table<unknown>, dayRows), 'application/vnd.apache.parquet', dayRows.length, entity);
    }
  }
}
