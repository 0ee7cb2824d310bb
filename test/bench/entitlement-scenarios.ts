/**
 * GET /v1/customers/{id}/entitlements beside its floor, one strongly consistent GetItem of the materialised item:
 * a customer subscribed to a plan granting a boolean and a limit feature, plus an override (docs/entitlements.md).
 * Imports the shared table client: import this module only after DYNAMODB_ENDPOINT is set.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx } from '../../shared/context';
import { db, dynamoCallCount, tableName } from '../../shared/db/client';
import { entitlementsKey } from '../../shared/domain/entitlements/entitlement';
import { materialiseEntitlements } from '../../shared/domain/entitlements/materialise';
import type { LocalKeys } from '../../lib/local/jwt';
import { directInvoker } from './direct-invoke';
import { apiClient } from './http';
import { measureAgainstFloor, type PairResult } from './latency';

export interface EntitlementBench {
  baseUrl: string;
  keys: LocalKeys;
  workspaceId: string;
  token: string;
  counts: { warmup: number; measured: number };
  dynamoWarmup: number;
}

export interface EntitlementResults {
  http: PairResult;
  handler: PairResult;
}

export async function measureEntitlements({ baseUrl, keys, workspaceId, token, counts, dynamoWarmup }: EntitlementBench): Promise<EntitlementResults> {
  const call = apiClient(baseUrl, token);
  await call('POST', '/v1/invoicing-entities', 201, { name: 'Bench SAS', country: 'FR', currency: 'EUR' });
  const product = await call<{ id: string }>('POST', '/v1/products', 201, { name: 'Platform', type: 'flat_fee' });
  const price = await call<{ id: string }>('POST', '/v1/price-configurations', 201, { product_id: product.id, currency: 'EUR', type: 'fee', prices: [{ amount: 1_000 }], billing_interval: { period: 'months', count: 1 } });
  const sso = await call<{ id: string }>('POST', '/v1/features', 201, { code: 'sso', name: 'SSO', type: 'boolean' });
  const seats = await call<{ id: string }>('POST', '/v1/features', 201, { code: 'seats', name: 'Seats', type: 'limit' });
  const plan = await call<{ id: string }>('POST', '/v1/plans', 201, {
    name: 'Team', currency: 'EUR', products: [{ product_id: product.id, price_configuration_id: price.id, quantity: 1 }],
    features: [{ feature_id: sso.id, value: true }, { feature_id: seats.id, value: 10 }],
  });
  const customer = await call<{ id: string }>('POST', '/v1/customers', 201, { name: 'Bench', currency: 'EUR', billing_address: { country: 'FR' } });
  await call('POST', '/v2/subscriptions', 201, { customer_id: customer.id, plan_id: plan.id });
  // What the stream does after the subscription's write (no stream runs in the bench), then an override.
  await materialiseEntitlements(makeCtx(workspaceId, 'bench'), customer.id);
  await call('PUT', `/v1/customers/${customer.id}/entitlements/${seats.id}`, 200, { value: 25 });

  const key = entitlementsKey(makeCtx(workspaceId, 'bench'), customer.id);
  const readItem = async () => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    if (!Item) throw new Error('floor: entitlements not found');
  };
  for (let i = 0; i < dynamoWarmup; i++) await readItem();
  const path = `/v1/customers/${customer.id}/entitlements`;
  const invoke = await directInvoker('getCustomerEntitlements', keys, token);
  const pair = (route: (i: number) => Promise<unknown>) => measureAgainstFloor({ ...counts, callCount: dynamoCallCount, route, floor: readItem });
  return { http: await pair(() => call('GET', path, 200)), handler: await pair(() => invoke(path, { id: customer.id }, 200)) };
}

const ms = (n: number) => n.toFixed(2);

/** The target (issue 35): the handler's p50 within 1.2× the GetItem's. */
export function entitlementTargets(r: EntitlementResults) {
  const ratio = r.handler.route.p50 / r.handler.floor.p50;
  return [{
    target: 'GET /v1/customers/{id}/entitlements (handler in-process) p50 ≤ 1.2× one GetItem',
    measured: `${ms(r.handler.route.p50)} ms vs ${ms(r.handler.floor.p50)} ms (${ratio.toFixed(2)}×), ${r.handler.callsPerRequest.toFixed(2)} DynamoDB calls`,
    pass: ratio <= 1.2,
  }];
}

export function entitlementReport(r: EntitlementResults): string {
  const row = (name: string, p: PairResult) => `| ${name} | ${ms(p.route.p50)} | ${ms(p.route.p95)} | ${ms(p.floor.p50)} | ${(p.route.p50 / p.floor.p50).toFixed(2)}× | ${p.callsPerRequest.toFixed(2)} |`;
  return [
    '## Entitlements: GET /v1/customers/{id}/entitlements beside one GetItem of the materialised item',
    '',
    '| path | p50 ms | p95 ms | GetItem p50 ms | p50 ratio | DynamoDB calls |',
    '|---|---|---|---|---|---|',
    row('through the local server (HTTP, token check)', r.http),
    row('handler in-process', r.handler),
  ].join('\n');
}
