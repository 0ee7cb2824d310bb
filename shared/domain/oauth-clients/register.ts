import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { entityKey } from '../../db/keys';
import { InvalidRequest } from '../../errors';
import { newId } from '../../ids';

export interface ClientMetadata {
  redirect_uris: string[];
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  scope?: string;
  grant_types?: string[];
  response_types?: string[];
  token_endpoint_auth_method?: 'none' | 'client_secret_post';
  software_id?: string;
  software_version?: string;
  contacts?: string[];
  tos_uri?: string;
  policy_uri?: string;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** RFC 8252 and decisions.md: https anywhere, http only on a loopback host (native apps); never a fragment. */
export function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `'${value}' is not an absolute URI`;
  }
  if (url.hash || value.includes('#')) return `'${value}' must not contain a fragment`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return undefined;
  return `'${value}' must use https (http is allowed only on localhost, 127.0.0.1 or [::1])`;
}

/**
 * Dynamic client registration (RFC 7591). Every client is public: no secret is issued, whatever
 * `token_endpoint_auth_method` says (it is echoed). Stored per workspace.
 */
export async function registerClient(ctx: Ctx, metadata: ClientMetadata) {
  const problems = metadata.redirect_uris.map(redirectUriProblem).filter((p): p is string => !!p);
  if (problems.length > 0) {
    throw new InvalidRequest(problems.join('; '), problems.map((message) => ({ path: 'body.redirect_uris', message })), 'invalid_redirect_uri');
  }
  const now = ctx.clock.now();
  const registration = {
    client_id: newId('cli', now.getTime()),
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    ...metadata,
    grant_types: metadata.grant_types ?? ['authorization_code'],
    response_types: metadata.response_types ?? ['code'],
    token_endpoint_auth_method: metadata.token_endpoint_auth_method ?? 'none',
  };
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...entityKey(ctx, 'CLI', registration.client_id), _type: 'oauth_client', _version: 0, ...registration, created_at: now.toISOString() },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return registration;
}
