import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { journalCsv } from '../accounting/csv';
import { datevBytes } from '../accounting/datev';
import { fecBytes, fecFileName } from '../accounting/fec';
import { journalOf, type JournalSources } from '../accounting/journal';
import type { Account } from '../accounting/accounts';
import type { CustomerItem } from '../customers/customer';
import type { InvoiceItem } from '../invoices/invoice';
import { entityItemKey, type EntityItem } from '../invoicing-entities/invoicing-entity';
import type { ProductItem } from '../catalog/product';
import type { WalletItem } from '../wallets/wallet';
import type { WalletTransactionItem } from '../wallets/transaction';
import { periodEnd, type ExportItem, type FileWriter } from './export';
import { ledgersOf, listedItems } from './sources';

interface Workspace {
  sources: JournalSources;
  customers: Map<string, CustomerItem>;
  products: Map<string, ProductItem>;
}

async function readWorkspace(ctx: Ctx, before: string): Promise<Workspace> {
  const [invoices, wallets, customers, products] = await Promise.all([
    listedItems<InvoiceItem>(ctx, 'INV', before), listedItems<WalletItem>(ctx, 'WAL', before),
    listedItems<CustomerItem>(ctx, 'CUS'), listedItems<ProductItem>(ctx, 'ITM'),
  ]);
  const walletTransactions = await ledgersOf<WalletTransactionItem>(wallets.map((w) => w.pk), 'TX#');
  return {
    sources: { invoices, walletTransactions },
    customers: new Map(customers.map((c) => [c.id, c])),
    products: new Map(products.map((p) => [p.id, p])),
  };
}

/** The entities whose journals the export holds: the one asked for, else every entity a document or customer names. */
async function entitiesOf(ctx: Ctx, item: ExportItem, ws: Workspace): Promise<EntityItem[]> {
  const ids = item.invoicing_entity_id ? [item.invoicing_entity_id]
    : [...new Set([...ws.sources.invoices.map((i) => i.invoicing_entity_id), ...[...ws.customers.values()].map((c) => c.invoicing_entity_id)])].filter(Boolean).sort();
  const entities = await Promise.all(ids.map((id) => getItem<EntityItem>(entityItemKey(ctx, id))));
  return entities.filter((e): e is EntityItem => !!e);
}

/**
 * A journal export: one file per invoicing entity (a FEC is one entity's by law), in the entity's accounting
 * currency and time zone. Entities with nothing in the period get no file, unless the export names the entity.
 */
export async function writeJournalFiles(ctx: Ctx, item: ExportItem, write: FileWriter): Promise<void> {
  const to = periodEnd(item.period.to);
  const ws = await readWorkspace(ctx, to);
  for (const entity of await entitiesOf(ctx, item, ws)) {
    const currency = entity.accounting_currency ?? entity.currency;
    const account = (productId: string): Account | undefined => {
      const code = ws.products.get(productId)?.account_code;
      return code ? { code, label: ws.products.get(productId)!.name } : undefined;
    };
    const customer = (id: string) => {
      const c = ws.customers.get(id);
      return c && { name: c.name, invoicing_entity_id: c.invoicing_entity_id };
    };
    const entries = journalOf(ws.sources, { accountingCurrency: currency, productAccount: account, customer }, {
      from: `${item.period.from}T00:00:00.000Z`, to, invoicingEntityId: entity.id,
    });
    if (entries.length === 0 && !item.invoicing_entity_id) continue;
    const rows = entries.reduce((n, e) => n + e.lines.length, 0);
    const span = `${item.period.from}_${item.period.to}`;
    if (item.format === 'fec') {
      await write(fecFileName(entity.registration_number, entity.id, item.period.to), fecBytes(entries, currency, entity.timezone), 'text/plain; charset=iso-8859-15', rows, entity.id);
    } else if (item.format === 'datev') {
      const body = datevBytes(entries, { currency, timeZone: entity.timezone, from: item.period.from, to: item.period.to, createdAt: item.created_at });
      await write(`EXTF_Buchungsstapel_${entity.id}_${span}.csv`, body, 'text/csv; charset=windows-1252', rows, entity.id);
    } else {
      await write(`journal_${entity.id}_${span}.csv`, Buffer.from(journalCsv(entries, currency, entity.timezone), 'utf8'), 'text/csv; charset=utf-8', rows, entity.id);
    }
  }
}
