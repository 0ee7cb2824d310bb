import type { CustomerItem } from '../customers/customer';
import type { CreditTransactionItem } from '../credits/credit';
import type { InvoiceItem, InvoiceLineItem, PaymentTransaction } from '../invoices/invoice';
import type { SubscriptionItem } from '../subscriptions/subscription';
import type { WalletTransactionItem } from '../wallets/transaction';

export type ColumnType = 'STRING' | 'INT64' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP';

export interface Column<R> {
  name: string;
  type: ColumnType;
  of: (row: R) => unknown;
}

/** A table of the data export: its rows, the day each belongs to (its partition), and its columns. */
export interface Table<R> {
  name: string;
  day: (row: R) => string | null | undefined;
  columns: Column<R>[];
}

/** The stored item without its keys and internal members: the `record` column, as JSON. */
export function record(item: object): string {
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) if (!/^(pk|sk|lf|_.*|gsi\d(pk|sk))$/.test(k)) copy[k] = v;
  return JSON.stringify(copy);
}

const s = <R>(name: string, of: (r: R) => unknown): Column<R> => ({ name, type: 'STRING', of });
const i = <R>(name: string, of: (r: R) => unknown): Column<R> => ({ name, type: 'INT64', of });
const t = <R>(name: string, of: (r: R) => unknown): Column<R> => ({ name, type: 'TIMESTAMP', of });
const d = <R>(name: string, of: (r: R) => unknown): Column<R> => ({ name, type: 'DOUBLE', of });
const json = <R extends object>(): Column<R> => s('record', (r) => record(r));
const day = (iso: string | null | undefined) => iso?.slice(0, 10);

export type Line = InvoiceLineItem & { invoice: InvoiceItem };
export type Transaction = PaymentTransaction & { invoice: InvoiceItem };
export interface UsageRow {
  customer_id: string;
  aggregator_id: string;
  hour: string;
  count: number;
  sum: number;
}

const documentColumns: Column<InvoiceItem>[] = [
  s('id', (r) => r.id), s('number', (r) => r.number), s('type', (r) => r.type), s('status', (r) => r.status), s('customer_id', (r) => r.customer_id),
  s('invoicing_entity_id', (r) => r.invoicing_entity_id), s('subscription_id', (r) => r.subscription_id), s('currency', (r) => r.currency),
  i('amount_excluding_tax', (r) => r.amount_excluding_tax), i('tax_amount', (r) => r.tax_amount), i('total_amount', (r) => r.total_amount),
  i('amount_paid', (r) => r.amount_paid), i('amount_due', (r) => r.amount_due), s('original_invoice_id', (r) => r.original_invoice_id),
  t('emitted_at', (r) => r.emitted_at), t('due_at', (r) => r.due_at), t('settled_at', (r) => r.settled_at), t('created_at', (r) => r.created_at), json(),
];

/** The exported tables (docs/accounting.md, "Data export", has each one's Athena definition). */
export const TABLES = {
  customers: {
    name: 'customers', day: (r) => day(r.created_at),
    columns: [s('id', (r) => r.id), s('name', (r) => r.name), s('status', (r) => r.status), s('currency', (r) => r.currency), s('invoicing_entity_id', (r) => r.invoicing_entity_id), t('created_at', (r) => r.created_at), json()],
  } satisfies Table<CustomerItem>,
  subscriptions: {
    name: 'subscriptions', day: (r) => day(r.created_at),
    columns: [s('id', (r) => r.id), s('customer_id', (r) => r.customer_id), s('status', (r) => r.status), s('currency', (r) => r.currency), t('starts_at', (r) => r.starts_at), t('created_at', (r) => r.created_at), json()],
  } satisfies Table<SubscriptionItem>,
  invoices: { name: 'invoices', day: (r) => day(r.emitted_at ?? r.created_at), columns: documentColumns } satisfies Table<InvoiceItem>,
  credit_notes: { name: 'credit_notes', day: (r) => day(r.emitted_at ?? r.created_at), columns: documentColumns } satisfies Table<InvoiceItem>,
  invoice_lines: {
    name: 'invoice_lines', day: (r) => day(r.invoice.emitted_at ?? r.invoice.created_at),
    columns: [
      s('id', (r) => r.id), s('invoice_id', (r) => r.invoice.id), s('invoice_type', (r) => r.invoice.type), s('product_id', (r) => r.product_id), s('name', (r) => r.name),
      s('currency', (r) => r.invoice.currency), d('units_count', (r) => r.units_count), i('unit_amount', (r) => r.unit_amount), i('amount_excluding_tax', (r) => r.amount_excluding_tax),
      d('tax_rate', (r) => r.tax_rate), i('tax_amount', (r) => r.tax_amount), i('amount', (r) => r.amount), t('period_starts_at', (r) => r.period_starts_at), t('period_ends_at', (r) => r.period_ends_at),
    ],
  } satisfies Table<Line>,
  transactions: {
    name: 'transactions', day: (r) => day(r.process_at),
    columns: [
      s('id', (r) => r.id), s('invoice_id', (r) => r.invoice.id), s('type', (r) => r.type), s('status', (r) => r.status), i('amount', (r) => r.amount), s('currency', (r) => r.currency),
      s('customer_id', (r) => r.customer_id), s('provider_id', (r) => r.provider_id), s('payment_method_type', (r) => r.payment_method?.type ?? null), t('process_at', (r) => r.process_at),
    ],
  } satisfies Table<Transaction>,
  wallet_transactions: {
    name: 'wallet_transactions', day: (r) => day(r.created_at),
    columns: [
      s('id', (r) => r.id), s('wallet_id', (r) => r.wallet_id), s('customer_id', (r) => r.customer_id), s('type', (r) => r.type), i('amount', (r) => r.amount),
      i('balance_after', (r) => r.balance_after), s('currency', (r) => r.currency), s('source', (r) => r.source), s('invoice_id', (r) => r.invoice_id), t('created_at', (r) => r.created_at),
    ],
  } satisfies Table<WalletTransactionItem>,
  credit_transactions: {
    name: 'credit_transactions', day: (r) => day(r.created_at),
    columns: [s('id', (r) => r.id), s('customer_id', (r) => r.customer_id), s('product_id', (r) => r.product_id), s('type', (r) => r.type), d('credit_count', (r) => r.credit_count), t('created_at', (r) => r.created_at), json()],
  } satisfies Table<CreditTransactionItem>,
  usage_aggregates: {
    name: 'usage_aggregates', day: (r) => r.hour.slice(0, 10),
    columns: [s('customer_id', (r) => r.customer_id), s('aggregator_id', (r) => r.aggregator_id), t('hour', (r) => `${r.hour}:00:00.000Z`), d('count', (r) => r.count), d('sum', (r) => r.sum)],
  } satisfies Table<UsageRow>,
};
