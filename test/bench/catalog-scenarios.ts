/**
 * Catalog: GET /v1/price-configurations?product_id=… as a product's configurations grow (100 vs 20,000), first page
 * beside its DynamoDB floor, and what `skip=5000` costs. Imports the shared table client: import this module only
 * once DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx, type Ctx } from '../../shared/context';
import { db, dynamoCallCount, tableName } from '../../shared/db/client';
import { counterKey, parentListPartition, type Key } from '../../shared/db/keys';
import { parentCounter } from '../../shared/db/pagination';
import { PRICE_CONFIGURATION } from '../../shared/domain/catalog/price-configuration';
import { signToken, type LocalKeys } from '../../lib/local/jwt';
import { meter, uninstallMeter, type ReadCost } from './dynamo-meter';
import { apiClient, type ApiCall } from './http';
import { measureAgainstFloor, summarize, type PairResult } from './latency';
import { checkPriceConfigurationShape, seedPriceConfigurations, type ConfigurationSeedResult } from './price-configuration-seed';
import { timed } from './stats';

const shortId = () => Math.random().toString(36).slice(2, 10);
const TAKE = 50;
/** The index page listPage reads while skipping (shared/db/pagination.ts INDEX_PAGE). */
const INDEX_PAGE = 1_000;

interface ConfigurationList {
  meta: { total: number; taken: number; skipped: number };
  data: { id: string; product_id: string }[];
}

export interface PriceListSize {
  /** Configurations on the measured product. */
  configurations: number;
  /** Configurations in the whole workspace (the measured product's and other products'). */
  inWorkspace: number;
  otherProducts: number;
  seed: ConfigurationSeedResult;
  firstPage: PairResult;
  /** One metered first-page request. */
  firstPageCost: ReadCost;
}

export interface PriceListResults {
  small: PriceListSize;
  large: PriceListSize;
  skip: {
    skip: number;
    take: number;
    latency: PairResult;
    cost: ReadCost;
    counts: { warmup: number; measured: number };
  };
  counts: { warmup: number; measured: number };
  seedConcurrency: number;
}

export interface PriceListBench {
  baseUrl: string;
  keys: LocalKeys;
  endpoint: string;
  /** Configurations on the measured product in each workspace. */
  sizes: { small: number; large: number };
  /** Other products in the large workspace, each with this many configurations (0: none). */
  others: { products: number; each: number };
  skip: number;
  counts: { warmup: number; measured: number };
  skipCounts: { warmup: number; measured: number };
  seedConcurrency: number;
}

/**
 * The handler's DynamoDB operations (shared/db/pagination.ts listPage with a parent): the gsi3 key window (pages of
 * at most 1,000 entries until skip + take are read) and the product's counter in parallel, then one BatchGetItem of
 * the page's keys.
 */
function floor(ctx: Ctx, productId: string, skip: number, take: number) {
  const partition = parentListPartition(ctx, PRICE_CONFIGURATION, 'product_id', productId);
  const counter = counterKey(ctx, parentCounter(PRICE_CONFIGURATION, 'product_id', productId));
  const window = async (): Promise<Key[]> => {
    const wanted = skip + take;
    const entries: Key[] = [];
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new QueryCommand({
        TableName: tableName(), IndexName: 'gsi3', KeyConditionExpression: 'gsi3pk = :p', ExpressionAttributeValues: { ':p': partition },
        ProjectionExpression: 'pk, sk', Limit: Math.min(wanted - entries.length, INDEX_PAGE), ExclusiveStartKey: cursor,
      }));
      entries.push(...((page.Items ?? []) as Key[]));
      cursor = page.LastEvaluatedKey;
    } while (cursor && entries.length < wanted);
    return entries.slice(skip, wanted);
  };
  return async () => {
    const [keys] = await Promise.all([window(), db.send(new GetCommand({ TableName: tableName(), Key: counter }))]);
    const { Responses } = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: keys } } }));
    if (Responses?.[tableName()]?.length !== take) throw new Error(`floor: ${Responses?.[tableName()]?.length} items, not ${take}`);
  };
}

function checkPage(page: ConfigurationList, expected: string[], total: number, skip: number, what: string): void {
  const ids = page.data.map((c) => c.id);
  const problem =
    page.meta.total !== total ? `meta.total ${page.meta.total}, not ${total}` :
    page.meta.skipped !== skip ? `meta.skipped ${page.meta.skipped}, not ${skip}` :
    ids.length !== expected.length ? `${ids.length} configurations, not ${expected.length}` :
    ids.some((id, i) => id !== expected[i]) ? `not the seeded configurations ${skip + 1}–${skip + expected.length}, oldest first` :
    '';
  if (problem) throw new Error(`${what}: the page is wrong: ${problem}`);
}

export async function measurePriceConfigurationLists(options: PriceListBench): Promise<PriceListResults> {
  const { baseUrl, keys, endpoint, sizes, counts } = options;
  const now = Date.now();
  const session = async (label: string) => {
    const workspaceId = `ws_bench_prc_${label}_${shortId()}`;
    return { workspaceId, ctx: makeCtx(workspaceId, 'bench'), call: apiClient(baseUrl, await signToken(keys, { workspace: workspaceId, scope: 'read write' })) };
  };

  // The seed builds its items itself; check once that they are what createPriceConfiguration stores.
  const scratch = await session('shape');
  await checkPriceConfigurationShape(scratch.ctx, scratch.call);

  const setups = [];
  for (const [label, count] of [['small', sizes.small], ['large', sizes.large]] as const) {
    const { workspaceId, ctx, call } = await session(label);
    const others = label === 'large' ? options.others.products : 0;
    const product = await call<{ id: string }>('POST', '/v1/products', 201, { name: `Bench seats (${count})`, type: 'seat' });
    const products = [{ id: product.id, count }];
    for (let p = 0; p < others; p++) {
      const other = await call<{ id: string }>('POST', '/v1/products', 201, { name: `Bench other ${p + 1}`, type: 'seat' });
      products.push({ id: other.id, count: options.others.each });
    }
    const inWorkspace = products.reduce((sum, p) => sum + p.count, 0);
    console.error(`Seeding ${inWorkspace.toLocaleString('en-US')} price configurations into ${workspaceId} (${count.toLocaleString('en-US')} on the measured product${others ? `, ${options.others.each.toLocaleString('en-US')} on each of ${others} others` : ''}; BatchWriteItem, ${options.seedConcurrency} in flight)…`);
    const seed = await seedPriceConfigurations({ ctx, products, now, endpoint, concurrency: options.seedConcurrency, label });
    setups.push({ label, count, inWorkspace, others, ctx, call, productId: product.id, ids: seed.idsByProduct.get(product.id)!, seed });
  }
  const large = setups[1]!;
  if (large.ids.length < options.skip + TAKE) throw new Error(`skip=${options.skip}: the large product has only ${large.ids.length} configurations`);

  const listPath = (productId: string, skip = 0) => `/v1/price-configurations?product_id=${productId}${skip ? `&skip=${skip}&take=${TAKE}` : ''}`;
  const list = (call: ApiCall, path: string) => call<ConfigurationList>('GET', path, 200);

  // Correct pages before anything is timed.
  for (const { count, call, productId, ids } of setups) {
    checkPage(await list(call, listPath(productId)), ids.slice(0, TAKE), count, 0, `${count} configurations, first page`);
  }
  const skipPath = listPath(large.productId, options.skip);
  checkPage(await list(large.call, skipPath), large.ids.slice(options.skip, options.skip + TAKE), large.count, options.skip, `skip=${options.skip}`);

  // 1. First page at both sizes, each beside its floor, interleaved in rotating order.
  console.error(`Measuring GET /v1/price-configurations?product_id=… first page at ${sizes.small.toLocaleString('en-US')} and ${sizes.large.toLocaleString('en-US')} configurations (${counts.warmup} warm-up + ${counts.measured} rounds, interleaved)…`);
  const variants = setups.flatMap(({ label, ctx, call, productId }) => [
    { name: `${label}.route`, run: () => list(call, listPath(productId)), samples: [] as number[], calls: 0 },
    { name: `${label}.floor`, run: floor(ctx, productId, 0, TAKE), samples: [] as number[], calls: 0 },
  ]);
  for (let round = 0; round < counts.warmup + counts.measured; round++) {
    const record = round >= counts.warmup;
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(round + k) % variants.length]!;
      const before = dynamoCallCount();
      const ms = await timed(variant.run);
      if (record) {
        variant.samples.push(ms);
        variant.calls += dynamoCallCount() - before;
      }
    }
  }
  const pair = (label: string): PairResult => {
    const route = variants.find((v) => v.name === `${label}.route`)!;
    const floorVariant = variants.find((v) => v.name === `${label}.floor`)!;
    return { route: summarize(route.samples), floor: summarize(floorVariant.samples), callsPerRequest: route.calls / counts.measured };
  };

  // 2. skip=5000 on the large product: its latency beside its floor, then what one request reads.
  const { skipCounts } = options;
  console.error(`Measuring GET /v1/price-configurations?product_id=…&skip=${options.skip}&take=${TAKE} at ${sizes.large.toLocaleString('en-US')} configurations (${skipCounts.warmup} warm-up + ${skipCounts.measured} requests, beside its floor)…`);
  const skipLatency = await measureAgainstFloor({
    ...skipCounts, callCount: dynamoCallCount, route: () => list(large.call, skipPath), floor: floor(large.ctx, large.productId, options.skip, TAKE),
  });

  let costs: ReadCost[];
  try {
    costs = [];
    for (const { call, productId } of setups) costs.push(await meter(() => list(call, listPath(productId))));
    costs.push(await meter(() => list(large.call, skipPath)));
  } finally {
    uninstallMeter();
  }

  const [small, big] = setups.map(({ label, count, inWorkspace, others, seed }, i) => ({
    configurations: count, inWorkspace, otherProducts: others, seed, firstPage: pair(label), firstPageCost: costs[i]!,
  }));
  return {
    small: small!, large: big!,
    skip: { skip: options.skip, take: TAKE, latency: skipLatency, cost: costs[2]!, counts: skipCounts },
    counts, seedConcurrency: options.seedConcurrency,
  };
}
