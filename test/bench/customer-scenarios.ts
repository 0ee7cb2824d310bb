/**
 * GET and PUT /v1/customers/{id}, each beside its DynamoDB floor. Imports the shared table client: import this
 * module only once DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx } from '../../shared/context';
import { db, dynamoCallCount, tableName } from '../../shared/db/client';
import { versionCondition } from '../../shared/db/items';
import { customerItemKey, customerListFields, type CustomerItem } from '../../shared/domain/customers/customer';
import { rateLimitKey, reserveTokens, windowOf } from '../../shared/http/rate-limit';
import { useRateLimits, type RateLimitSettings } from '../../shared/http/rate-limit-settings';
import type { LocalKeys } from '../../lib/local/jwt';
import { resolveCredential } from '../../shared/identity/credentials';
import { directInvoker } from './direct-invoke';
import { apiClient } from './http';
import { measureAgainstFloor, measureAlone, measureRotating, type PairResult, type Summary, type VariantResult } from './latency';

/**
 * The limiter's limits while it is measured: high enough that no request is refused (the bench sends thousands of
 * reads a window), so every request takes the ordinary path, one counter UpdateItem beside the handler's read.
 */
export const BENCH_RATE_LIMITS: RateLimitSettings = { reads: 1_000_000_000, writes: 1_000_000_000, windowSeconds: 10 };

/** GET /v1/customers/{id} with the per-workspace rate limiter and without it, interleaved in rotating order. */
export interface LimiterResults {
  without: VariantResult;
  with: VariantResult;
  handlerWithout: VariantResult;
  handlerWith: VariantResult;
  /** Their floors, sent directly: the GetItem alone, and the GetItem beside the limiter's own UpdateItem (countRequest). */
  floorWithout: VariantResult;
  floorWith: VariantResult;
  limits: RateLimitSettings;
}

export interface CustomerResults {
  get: PairResult;
  put: PairResult;
  /** The same handlers called in-process: what the function itself adds to the floor. */
  getHandler: PairResult;
  putHandler: PairResult;
  /** GET /health: the local HTTP round trip alone (no token check, no handler, no DynamoDB). */
  http: Summary;
  /** The local RS256 token verification alone (API Gateway's JWT authorizer on AWS). */
  tokenCheck: Summary;
  /** GET with and without the rate limiter (the rows above run without it). */
  limiter: LimiterResults;
}

export interface CustomerBench {
  baseUrl: string;
  keys: LocalKeys;
  workspaceId: string;
  token: string;
  counts: { warmup: number; measured: number };
  /** Floor operations sent before anything is recorded: DynamoDB Local (Java) keeps getting faster for ~2,000. */
  dynamoWarmup: number;
}

/** A customer of the bench's workspace, and the handler's read of it sent directly (its floor). */
async function benchCustomer(workspaceId: string, call: ReturnType<typeof apiClient>) {
  await call('POST', '/v1/invoicing-entities', 201, { name: 'Bench SAS', country: 'FR', currency: 'EUR' });
  const { id } = await call<{ id: string }>('POST', '/v1/customers', 201, { name: 'Bench 0' });
  const key = customerItemKey(makeCtx(workspaceId, 'bench'), id);
  // The handler's read (shared/domain/customers/read.ts): one strongly consistent GetItem.
  const readItem = async (): Promise<CustomerItem> => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    if (!Item) throw new Error(`floor: customer ${id} not found`);
    return Item as CustomerItem;
  };
  return { id, key, path: `/v1/customers/${id}`, readItem };
}

export async function measureCustomerRoutes({ baseUrl, keys, workspaceId, token, counts, dynamoWarmup }: CustomerBench): Promise<CustomerResults> {
  const call = apiClient(baseUrl, token);
  const { id, path, readItem } = await benchCustomer(workspaceId, call);
  // The handler's write for a name change (shared/domain/customers/update.ts, db/items.ts putIfUnchanged): that
  // read, then a PutItem of the whole item, conditional on the version read.
  const readThenPut = async (i: number): Promise<void> => {
    const current = await readItem();
    const next: CustomerItem = { ...current, name: `Bench floor ${i}`, updated_at: new Date().toISOString(), _version: current._version + 1 };
    next.lf = customerListFields(next);
    await db.send(new PutCommand({ TableName: tableName(), Item: next, ...versionCondition(current._version) }));
  };

  // Without this, whichever pair runs first meets a slower DynamoDB Local and every absolute number drifts.
  for (let i = 0; i < dynamoWarmup; i++) await (i % 4 === 3 ? readThenPut(i) : readItem());

  const pair = (route: (i: number) => Promise<unknown>, floor: (i: number) => Promise<unknown>) =>
    measureAgainstFloor({ ...counts, callCount: dynamoCallCount, route, floor });
  const invokeGet = await directInvoker('getCustomer', keys, token);
  const invokePut = await directInvoker('updateCustomer', keys, token);

  const get = await pair(() => call('GET', path, 200), readItem);
  const getHandler = await pair(() => invokeGet(path, { id }, 200), readItem);
  const put = await pair((i) => call('PUT', path, 200, { name: `Bench ${i}` }), readThenPut);
  const putHandler = await pair((i) => invokePut(path, { id }, 200, { name: `Bench direct ${i}` }), readThenPut);

  const http = await measureAlone(() => call("GET", "/health", 200), counts.warmup, counts.measured);
  // Uncached resolution: the first sight of a token, before the authorizer's cache remembers it.
  const tokenCheck = await measureAlone(() => resolveCredential(`Bearer ${token}`), counts.warmup, counts.measured);

  const limiter = await measureLimiter({ path, id, workspaceId, counts, call, invokeGet, readItem });
  return { get, put, getHandler, putHandler, http, tokenCheck, limiter };
}

interface LimiterBench {
  path: string;
  id: string;
  workspaceId: string;
  counts: { warmup: number; measured: number };
  call: ReturnType<typeof apiClient>;
  invokeGet: Awaited<ReturnType<typeof directInvoker>>;
  readItem: () => Promise<unknown>;
}

/**
 * GET /v1/customers/{id} with the rate limiter on and off, through the server and in-process, beside its floors:
 * the GetItem alone, and beside one block reservation's UpdateItem (what a request that reserves waits for).
 */
async function measureLimiter({ path, id, workspaceId, counts, call, invokeGet, readItem }: LimiterBench): Promise<LimiterResults> {
  // The limiter on or off for one request (the rest of the bench runs with it off: RATE_LIMIT_ENABLED=false).
  const limits = (settings: RateLimitSettings | null, run: () => Promise<unknown>) => async () => {
    const restore = useRateLimits(settings);
    try {
      return await run();
    } finally {
      restore();
    }
  };
  const reserveOne = () => {
    const { start, end } = windowOf(new Date(), BENCH_RATE_LIMITS.windowSeconds);
    return reserveTokens({ key: rateLimitKey(makeCtx(workspaceId, 'bench'), 'read', start), end, windowSeconds: BENCH_RATE_LIMITS.windowSeconds }, 1);
  };
  const variants = await measureRotating(
    [
      { name: 'without', run: limits(null, () => call('GET', path, 200)) },
      { name: 'with', run: limits(BENCH_RATE_LIMITS, () => call('GET', path, 200)) },
      { name: 'handlerWithout', run: limits(null, () => invokeGet(path, { id }, 200)) },
      { name: 'handlerWith', run: limits(BENCH_RATE_LIMITS, () => invokeGet(path, { id }, 200)) },
      { name: 'floorWithout', run: readItem },
      { name: 'floorWith', run: () => Promise.all([readItem(), reserveOne()]) },
    ],
    counts,
    dynamoCallCount,
  );
  const limiter = { ...(Object.fromEntries(variants) as Omit<LimiterResults, 'limits'>), limits: BENCH_RATE_LIMITS };
  // A block reservation is at most one UpdateItem per request (exactly one when every block is a single token).
  const added = limiter.with.callsPerRequest - limiter.without.callsPerRequest;
  if (!(added > 0 && added <= 1)) {
    throw new Error(`the limiter should add between 0 and 1 DynamoDB call per request: ${limiter.without.callsPerRequest} without, ${limiter.with.callsPerRequest} with`);
  }
  return limiter;
}

/**
 * The limiter's rows alone (`npm run bench -- --only limiter`): the same customer, warm-up and rotation as in the
 * full run, without the other customer measurements.
 */
export async function measureLimiterOnly({ baseUrl, keys, workspaceId, token, counts, dynamoWarmup }: CustomerBench): Promise<LimiterResults> {
  const call = apiClient(baseUrl, token);
  const { id, path, readItem } = await benchCustomer(workspaceId, call);
  for (let i = 0; i < dynamoWarmup; i++) await readItem();
  const invokeGet = await directInvoker('getCustomer', keys, token);
  return measureLimiter({ path, id, workspaceId, counts, call, invokeGet, readItem });
}
