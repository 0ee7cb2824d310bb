import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { entityKey } from '../../db/keys';
import { InvalidRequest } from '../../errors';
import { newId } from '../../ids';
import { OAUTH_SCOPES } from '../../schemas/bounds';

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

/** The members of RFC 7591 this server understands; any other member of a registration is ignored (§2). */
const KNOWN_MEMBERS = [
  'redirect_uris', 'client_name', 'client_uri', 'logo_uri', 'scope', 'grant_types', 'response_types', 'token_endpoint_auth_method',
  'software_id', 'software_version', 'contacts', 'tos_uri', 'policy_uri',
] as const satisfies readonly (keyof ClientMetadata)[];

/** An http(s) URI with an empty authority (`https:///cb`): WHATWG URL parsing would silently read `cb` as the host. */
const EMPTY_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/(?:[/?#]|$)/i;

/** RFC 8252 and decisions.md: https anywhere, http only on a loopback host (native apps); never a fragment. */
export function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `'${value}' is not an absolute URI`;
  }
  if (EMPTY_AUTHORITY.test(value)) return `'${value}' has no host`;
  if (url.hash || value.includes('#')) return `'${value}' must not contain a fragment`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return undefined;
  return `'${value}' must use https (http is allowed only on localhost, 127.0.0.1 or [::1])`;
}

/**
 * Dynamic client registration (RFC 7591). Every client is public: no secret is issued, whatever
 * `token_endpoint_auth_method` says (it is echoed). Stored per workspace.
 */
/**
 * The scope granted: the requested scopes that exist, in their order, without repeats (RFC 7591 §2: the server may
 * grant fewer than asked, and says so by echoing what it granted). None that exists → invalid_client_metadata.
 */
export function grantedScope(requested: string | undefined): string | undefined {
  if (requested === undefined) return undefined;
  const granted = [...new Set(requested.split(' ').filter((s) => (OAUTH_SCOPES as readonly string[]).includes(s)))];
  if (granted.length === 0) {
    throw new InvalidRequest(`scope names none of the scopes that exist (${OAUTH_SCOPES.join(', ')}).`, [
      { path: 'body.scope', message: `must name at least one of ${OAUTH_SCOPES.join(', ')}` },
    ]);
  }
  return granted.join(' ');
}

export async function registerClient(ctx: Ctx, given: ClientMetadata) {
  const metadata = Object.fromEntries(KNOWN_MEMBERS.filter((k) => given[k] !== undefined).map((k) => [k, given[k]])) as unknown as ClientMetadata;
  const problems = metadata.redirect_uris.map(redirectUriProblem).filter((p): p is string => !!p);
  if (problems.length > 0) {
    throw new InvalidRequest(problems.join('; '), problems.map((message) => ({ path: 'body.redirect_uris', message })), 'invalid_redirect_uri');
  }
  const now = ctx.clock.now();
  const registration = {
    client_id: newId('cli', now.getTime()),
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    ...metadata,
    ...(metadata.scope !== undefined && { scope: grantedScope(metadata.scope) }),
    grant_types: metadata.grant_types ?? ['authorization_code'],
    response_types: metadata.response_types ?? ['code'],
    token_endpoint_auth_method: metadata.token_endpoint_auth_method ?? 'none',
  };
  const created = { ConditionExpression: 'attribute_not_exists(pk)', TableName: tableName() };
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { ...created, Item: { ...entityKey(ctx, 'CLI', registration.client_id), _type: 'oauth_client', _version: 0, ...registration, created_at: now.toISOString() } } },
        { Put: { ...created, Item: { ...clientPointerKey(registration.client_id), _type: 'oauth_client_pointer', workspace_id: ctx.workspaceId } } },
      ],
    }),
  );
  return registration;
}

/**
 * Where /oauth/authorize finds the workspace of a registered client before anyone has signed in: the one key of the
 * table that does not begin with a workspace, because the client_id is all the authorization request carries. It
 * holds the workspace id only, is written with the client in one transaction, and is read by its exact key (the
 * client_id is public; knowing it grants nothing: a person of that workspace still has to sign in and consent).
 */
export const clientPointerKey = (clientId: string) => ({ pk: `OAUTH#CLIENT#${clientId}`, sk: 'OAUTH#CLIENT' });
