import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem, putIfUnchanged, retryOnRace } from '../../db/items';
import { listIndexKeys } from '../../db/keys';
import { counterUpdate, listPage, type Page } from '../../db/pagination';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { InvalidRequest, NotFound, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { destinationPolicy, destinationProblem } from '../../net/public-address';
import { ENDPOINT, ROTATION_OVERLAP_MS, endpointKey, toEndpoint, type Endpoint, type EndpointItem } from './endpoint';
import { MAX_ENDPOINTS } from './schedule-deliveries';
import { generateSecret, prefixedSecret, secretKey } from './signature';

export interface EndpointInput {
  url?: string;
  description?: string | null;
  event_types?: string[] | null;
  rate_limit?: number | null;
  secret?: string;
  status?: 'enabled' | 'disabled';
}

const endpointNotFound = (id: string) => new NotFound('webhook endpoint', id);

/** https to a public host (shared/net/public-address.ts); loopback http only where the local runtime allows it. */
async function assertDeliverable(url: string): Promise<void> {
  const message = await destinationProblem(url, destinationPolicy());
  if (message) throw new InvalidRequest(`Invalid body: body.url ${message}.`, [{ path: 'body.url', message }]);
}

/** The secret as stored (with its prefix), or a 400 when it is not one. */
function acceptedSecret(given: string): string {
  const secret = prefixedSecret(given);
  if (secretKey(secret)) return secret;
  const message = "must be the base64 of 24 to 64 random bytes, after 'whsec_' or alone";
  throw new InvalidRequest(`Invalid body: body.secret ${message}.`, [{ path: 'body.secret', message }]);
}

/** Creates an endpoint; the response carries its secret, which no later response shows. */
export async function createEndpoint(ctx: Ctx, input: EndpointInput & { url: string }): Promise<Endpoint & { secret: string }> {
  await assertDeliverable(input.url);
  const secret = input.secret === undefined ? generateSecret() : acceptedSecret(input.secret);
  const id = newId('ep');
  const now = ctx.clock.now().toISOString();
  const item: EndpointItem = {
    ...endpointKey(ctx, id),
    ...listIndexKeys(ctx, ENDPOINT, now, id),
    _type: 'webhook_endpoint',
    _version: 0,
    id,
    url: input.url,
    description: input.description ?? null,
    event_types: input.event_types ?? null,
    rate_limit: input.rate_limit ?? null,
    status: input.status ?? 'enabled',
    disabled_reason: null,
    secret,
    attempt_count: 0,
    created_at: now,
    updated_at: now,
  };
  try {
    await transactWrite([
      { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      counterUpdate(ctx, ENDPOINT, 1, MAX_ENDPOINTS),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw new RuleViolation('endpoint_limit_reached', `A workspace has at most ${MAX_ENDPOINTS} webhook endpoints.`);
    throw error;
  }
  return { ...toEndpoint(item), secret: item.secret };
}

export async function findEndpointItem(ctx: Ctx, id: string): Promise<EndpointItem> {
  const item = await getItem<EndpointItem>(endpointKey(ctx, id), true);
  if (!item) throw endpointNotFound(id);
  return item;
}

export const getEndpoint = async (ctx: Ctx, id: string): Promise<Endpoint> => toEndpoint(await findEndpointItem(ctx, id));

export const listEndpoints = (ctx: Ctx, query: { take: number; skip: number }): Promise<Page<Endpoint>> =>
  listPage(ctx, ENDPOINT, query, toEndpoint);

/**
 * Partial update. A new `secret` starts a rotation: the old one keeps signing beside it for 24 h. Enabling a
 * disabled endpoint clears why it was disabled.
 */
export async function updateEndpoint(ctx: Ctx, id: string, input: EndpointInput): Promise<Endpoint> {
  if (input.url !== undefined) await assertDeliverable(input.url);
  const secret = input.secret === undefined ? undefined : acceptedSecret(input.secret);
  return retryOnRace(async () => {
    const current = await findEndpointItem(ctx, id);
    const now = ctx.clock.now();
    const next: EndpointItem = { ...current, updated_at: now.toISOString() };
    if (input.url !== undefined) next.url = input.url;
    if (input.description !== undefined) next.description = input.description;
    if (input.event_types !== undefined) next.event_types = input.event_types;
    if (input.rate_limit !== undefined) next.rate_limit = input.rate_limit;
    if (input.status !== undefined) {
      next.status = input.status;
      next.disabled_reason = input.status === 'enabled' ? null : (current.disabled_reason ?? 'disabled by request');
    }
    if (secret !== undefined && secret !== current.secret) {
      next.previous_secret = current.secret;
      next.previous_secret_expires_at = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
      next.secret = secret;
    }
    return toEndpoint(await putIfUnchanged(next, current._version));
  });
}

/** Deletes the endpoint (its past attempts stay readable by id only through their messages). */
export async function deleteEndpoint(ctx: Ctx, id: string): Promise<Endpoint> {
  const current = await findEndpointItem(ctx, id);
  try {
    await transactWrite([
      { Delete: { TableName: tableName(), Key: endpointKey(ctx, id), ConditionExpression: 'attribute_exists(pk)' } },
      counterUpdate(ctx, ENDPOINT, -1),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw endpointNotFound(id);
    throw error;
  }
  return toEndpoint(current);
}
