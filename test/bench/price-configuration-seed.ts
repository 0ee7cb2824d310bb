/**
 * Price configurations written straight into DynamoDB Local, shaped as createPriceConfiguration
 * (shared/domain/catalog/price-configurations.ts) writes them, with the two counters it keeps, so the list benchmark
 * can meet 20,000 of them on one product without 20,000 API round trips. Imports the shared table client: import this
 * module only once DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
import { deepStrictEqual } from 'node:assert/strict';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { putBatch } from './batch-write';
import type { Ctx } from '../../shared/context';
import { db, tableName } from '../../shared/db/client';
import { counterKey, listIndexKeys, parentListKeys, type Key } from '../../shared/db/keys';
import { parentCounter } from '../../shared/db/pagination';
import {
  PRICE_CONFIGURATION, priceConfigurationKey, priceConfigurationListFields, type PriceConfigurationItem,
} from '../../shared/domain/catalog/price-configuration';
import { newId } from '../../shared/ids';
import type { ApiCall } from './http';

/** A seat product's volume tiers: the body every seeded configuration was "created" with. */
export const SEAT_TIERS = [
  { from: 1, to: 10, amount: 1000, unit_count: 1, on_tier_incomplete: 'pro_rata' },
  { from: 11, to: null, amount: 800, unit_count: 1, on_tier_incomplete: 'pro_rata' },
] as const;
export const CONFIGURATION_BODY = { currency: 'EUR', type: 'volume', prices: SEAT_TIERS } as const;

export interface ConfigurationSpec {
  productId: string;
  id: string;
  createdAt: string;
  /** One id per tier of SEAT_TIERS. */
  priceIds: string[];
}

/** The item createPriceConfiguration stores for CONFIGURATION_BODY on `productId`: same keys, same attributes. */
export function priceConfigurationItem(ctx: Ctx, { productId, id, createdAt, priceIds }: ConfigurationSpec): PriceConfigurationItem {
  const item: PriceConfigurationItem = {
    ...priceConfigurationKey(ctx, id),
    ...listIndexKeys(ctx, PRICE_CONFIGURATION, createdAt, id),
    ...parentListKeys(ctx, PRICE_CONFIGURATION, 'product_id', productId, createdAt, id),
    _type: 'price_configuration',
    _version: 0,
    id,
    product_id: productId,
    price_book_id: null,
    status: 'active',
    currency: CONFIGURATION_BODY.currency,
    country: null,
    plan_id: null,
    billing_interval: { period: 'once' },
    commitment_interval: { period: 'all' },
    type: CONFIGURATION_BODY.type,
    prices: SEAT_TIERS.map((tier, i) => ({ id: priceIds[i]!, ...tier })),
    created_at: createdAt,
    updated_at: createdAt,
    archived_at: null,
  };
  item.lf = priceConfigurationListFields(item);
  return item;
}

/** The counters createPriceConfiguration bumps: the workspace's (`PRC`) and the product's (`PRC#product_id=<id>`). */
export const workspaceCounter = (ctx: Ctx, total: number) => ({ ...counterKey(ctx, PRICE_CONFIGURATION), total });
export const productCounter = (ctx: Ctx, productId: string, total: number) => ({ ...counterKey(ctx, parentCounter(PRICE_CONFIGURATION, 'product_id', productId)), total });

async function readRaw(key: Key): Promise<Record<string, unknown> | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return Item;
}

/**
 * Creates one configuration through the API in `ctx`'s (fresh, scratch) workspace, reads what was stored, and fails
 * if `priceConfigurationItem` or the counters would differ: if createPriceConfiguration changes its items, the seed
 * must change with it.
 */
export async function checkPriceConfigurationShape(ctx: Ctx, call: ApiCall): Promise<void> {
  const product = await call<{ id: string }>('POST', '/v1/products', 201, { name: 'Bench shape check', type: 'seat' });
  const created = await call<{ id: string }>('POST', '/v1/price-configurations', 201, { product_id: product.id, ...CONFIGURATION_BODY });
  const stored = (await readRaw(priceConfigurationKey(ctx, created.id))) as PriceConfigurationItem | undefined;
  if (!stored) throw new Error(`shape check: price configuration ${created.id} not found where priceConfigurationKey says`);
  const spec = { productId: product.id, id: stored.id, createdAt: stored.created_at, priceIds: stored.prices.map((p) => p.id) };
  const drift = 'the bench seed no longer builds price configurations as createPriceConfiguration stores them';
  deepStrictEqual(stored, { ...priceConfigurationItem(ctx, spec) }, drift);
  deepStrictEqual(await readRaw(counterKey(ctx, PRICE_CONFIGURATION)), workspaceCounter(ctx, 1), `${drift} (workspace counter)`);
  deepStrictEqual(await readRaw(counterKey(ctx, parentCounter(PRICE_CONFIGURATION, 'product_id', product.id))), productCounter(ctx, product.id, 1), `${drift} (product counter)`);
}

export interface ConfigurationSeed {
  ctx: Ctx;
  /** Configurations per product id; the first product is the measured one. */
  products: { id: string; count: number }[];
  now: number;
  endpoint: string;
  /** BatchWriteItem calls in flight at once. */
  concurrency: number;
  label: string;
}

export interface ConfigurationSeedResult {
  written: number;
  seconds: number;
  retries: number;
  /** Each product's configuration ids, oldest first: the order of its list. */
  idsByProduct: Map<string, string[]>;
}

const BATCH = 25;
const MINUTE = 60_000;

/**
 * Writes each product's configurations (created one a minute, ending a minute before `now`; several products'
 * interleave in time), then the product counters and the workspace counter, with BatchWriteItem (25 items per
 * call, `concurrency` in flight), re-sending UnprocessedItems with backoff. Uses its own client: the shared one's
 * call counter stays the handlers'.
 */
export async function seedPriceConfigurations(options: ConfigurationSeed): Promise<ConfigurationSeedResult> {
  const { ctx, products, now } = options;
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: options.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  const idsByProduct = new Map<string, string[]>();
  const items: Record<string, unknown>[] = [];
  products.forEach(({ id: productId, count }, p) => {
    const ids: string[] = [];
    const first = now - count * MINUTE + Math.floor((p * MINUTE) / products.length);
    for (let i = 0; i < count; i++) {
      const time = first + i * MINUTE - MINUTE;
      const id = newId('prc', time);
      ids.push(id);
      items.push({ ...priceConfigurationItem(ctx, { productId, id, createdAt: new Date(time).toISOString(), priceIds: SEAT_TIERS.map(() => newId('pri', time)) }) });
    }
    idsByProduct.set(productId, ids);
  });
  const counters = [
    ...products.map(({ id, count }) => productCounter(ctx, id, count)),
    workspaceCounter(ctx, products.reduce((sum, p) => sum + p.count, 0)),
  ];

  let retries = 0;
  let written = 0;
  let reported = 0;
  const started = performance.now();
  async function writeBatch(batch: Record<string, unknown>[]): Promise<void> {
    retries += await putBatch(client, batch as Record<string, unknown>[], options.label);
  }

  async function writeAll(all: Record<string, unknown>[]): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < all.length) {
        const batch = all.slice(next, (next = Math.min(all.length, next + BATCH)));
        await writeBatch(batch);
        written += batch.length;
        if (written - reported >= 10_000) {
          reported = written;
          const seconds = (performance.now() - started) / 1000;
          console.error(`  ${options.label}: ${written.toLocaleString('en-US')}/${items.length.toLocaleString('en-US')} configurations (${seconds.toFixed(1)} s, ${Math.round(written / seconds)}/s)`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  }

  try {
    await writeAll(items);
    // The counters last, once every item they count is there.
    await writeAll(counters);
  } finally {
    client.destroy();
  }
  return { written: items.length, seconds: (performance.now() - started) / 1000, retries, idsByProduct };
}
