import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '../../db/client';
import { newId } from '../../ids';
import { signAccessToken } from '../../identity/service-tokens';
import { OAuthError } from './errors';
import { codeKey, familyKey, refreshTokenKey, ttlOf } from './keys';
import { CODE_VERIFIER, digest, parseWorkspaceToken, s256, workspaceToken } from './secrets';
import { LIFETIMES } from './settings';

/** The token endpoint's form (RFC 6749 §4.1.3, §6; RFC 8707 `resource`). Public clients: `client_id`, no secret. */
export interface TokenForm {
  grant_type?: string;
  code?: string;
  redirect_uri?: string;
  client_id?: string;
  code_verifier?: string;
  refresh_token?: string;
  resource?: string;
  scope?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

interface Grant {
  workspaceId: string;
  clientId: string;
  subject: string;
  scope: string;
  resource: string;
}

const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);

export async function exchange(form: TokenForm, now: number): Promise<TokenResponse> {
  if (!form.client_id) throw new OAuthError('invalid_request', 'client_id is required (public clients identify themselves with it).');
  if (form.grant_type === 'authorization_code') return redeemCode(form, form.client_id, now);
  if (form.grant_type === 'refresh_token') return refresh(form, form.client_id, now);
  throw new OAuthError(form.grant_type ? 'unsupported_grant_type' : 'invalid_request', 'grant_type must be authorization_code or refresh_token.');
}

/** One item update that makes a whole grant (every refresh token of one authorization) unusable. */
async function revokeFamily(workspaceId: string, familyId: string, now: number, reason: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: familyKey(workspaceId, familyId),
      UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now), revoked_reason = if_not_exists(revoked_reason, :reason)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': new Date(now).toISOString(), ':reason': reason },
    }),
  ).catch((error: Error) => {
    if (error.name !== 'ConditionalCheckFailedException') throw error;
  });
}

/**
 * authorization_code (RFC 6749 §4.1.3, PKCE RFC 7636 §4.6). The code is used once: the update that marks it used,
 * the new grant and its first refresh token are one transaction conditioned on the code being unused and unexpired.
 * A code presented again revokes the grant it produced (RFC 6749 §4.1.2: "SHOULD revoke … all tokens previously
 * issued based on that authorization code"); access tokens already issued end with their 15 minutes.
 */
async function redeemCode(form: TokenForm, clientId: string, now: number): Promise<TokenResponse> {
  const parsed = parseWorkspaceToken(form.code);
  if (!parsed) throw invalidGrant('The authorization code is unknown, expired or already used.');
  const key = codeKey(parsed.workspaceId, parsed.digest);
  const code = (await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
  if (!code || code.client_id !== clientId) throw invalidGrant('The authorization code is unknown, expired or already used.');
  if (code.used_at) {
    await revokeFamily(parsed.workspaceId, code.family_id as string, now, 'authorization code reused');
    throw invalidGrant('The authorization code was already used; the tokens issued for it are revoked.');
  }
  if ((code.expires_at as number) <= now) throw invalidGrant('The authorization code has expired.');
  if (form.redirect_uri !== code.redirect_uri) throw invalidGrant('redirect_uri must be the one of the authorization request.');
  if (!form.code_verifier || !CODE_VERIFIER.test(form.code_verifier)) throw invalidGrant('code_verifier is missing or malformed (43 to 128 characters).');
  if (s256(form.code_verifier) !== code.code_challenge) throw invalidGrant('code_verifier does not match the code_challenge.');
  if (form.resource !== undefined && form.resource !== code.resource) throw new OAuthError('invalid_target', 'resource must be the one of the authorization request.');

  const grant: Grant = { workspaceId: parsed.workspaceId, clientId, subject: code.subject as string, scope: code.scope as string, resource: code.resource as string };
  const familyId = newId('grt', now);
  const refreshToken = workspaceToken(grant.workspaceId);
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: key,
              UpdateExpression: 'SET used_at = :now, family_id = :family',
              ConditionExpression: 'attribute_not_exists(used_at) AND expires_at > :nowMs',
              ExpressionAttributeValues: { ':now': new Date(now).toISOString(), ':family': familyId, ':nowMs': now },
            },
          },
          { Put: { TableName: tableName(), Item: familyItem(grant, familyId, now), ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: { TableName: tableName(), Item: refreshTokenItem(grant, familyId, refreshToken, now), ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) throw invalidGrant('The authorization code is unknown, expired or already used.');
    throw error;
  }
  return tokens(grant, refreshToken);
}

/**
 * refresh_token (RFC 6749 §6, OAuth 2.1 §4.3.1: rotation for public clients). Exchanging marks the token rotated and
 * stores its successor in one transaction conditioned on the token being active and its grant not revoked. A rotated
 * token presented again means two parties hold it: the whole grant is revoked.
 */
async function refresh(form: TokenForm, clientId: string, now: number): Promise<TokenResponse> {
  const parsed = parseWorkspaceToken(form.refresh_token);
  if (!parsed) throw invalidGrant('The refresh token is unknown, expired or revoked.');
  const key = refreshTokenKey(parsed.workspaceId, parsed.digest);
  const token = (await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
  if (!token || token.client_id !== clientId || (token.expires_at as number) <= now) throw invalidGrant('The refresh token is unknown, expired or revoked.');
  const familyId = token.family_id as string;
  if (token.rotated_at) {
    await revokeFamily(parsed.workspaceId, familyId, now, 'refresh token reused');
    throw invalidGrant('The refresh token was already used; every token of this grant is revoked.');
  }
  if (form.resource !== undefined && form.resource !== token.resource) throw new OAuthError('invalid_target', 'resource must be the one of the original authorization.');
  let scope = token.scope as string;
  if (form.scope !== undefined) {
    const asked = form.scope.split(' ').filter(Boolean);
    if (asked.length === 0 || asked.some((s) => !scope.split(' ').includes(s))) throw new OAuthError('invalid_scope', `scope may only narrow the grant (${scope}).`);
    scope = [...new Set(asked)].join(' ');
  }
  const grant: Grant = { workspaceId: parsed.workspaceId, clientId, subject: token.subject as string, scope, resource: token.resource as string };
  const successor = workspaceToken(grant.workspaceId);
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: key,
              UpdateExpression: 'SET rotated_at = :now',
              ConditionExpression: 'attribute_not_exists(rotated_at)',
              ExpressionAttributeValues: { ':now': new Date(now).toISOString() },
            },
          },
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: familyKey(grant.workspaceId, familyId),
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revoked_at)',
            },
          },
          { Put: { TableName: tableName(), Item: refreshTokenItem(grant, familyId, successor, now), ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    // The token was rotated meanwhile (a concurrent use: reuse all the same), or the grant is revoked.
    if (error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') await revokeFamily(parsed.workspaceId, familyId, now, 'refresh token reused');
    throw invalidGrant('The refresh token is unknown, expired or revoked.');
  }
  return tokens(grant, successor);
}

/**
 * RFC 7009: revoking a refresh token revokes its grant (every refresh token of it). Anything else (an access token,
 * which is a JWT that ends by itself within 15 minutes, an unknown token, another client's token) changes nothing and
 * is answered the same, as §2.2 requires.
 */
export async function revoke(token: string | undefined, clientId: string | undefined, now: number): Promise<void> {
  const parsed = parseWorkspaceToken(token);
  if (!parsed) return;
  const item = (await db.send(new GetCommand({ TableName: tableName(), Key: refreshTokenKey(parsed.workspaceId, parsed.digest) }))).Item;
  if (!item || (clientId !== undefined && item.client_id !== clientId)) return;
  await revokeFamily(parsed.workspaceId, item.family_id as string, now, 'revoked by the client');
}

function familyItem(grant: Grant, familyId: string, now: number) {
  return {
    ...familyKey(grant.workspaceId, familyId),
    _type: 'oauth_grant',
    id: familyId,
    client_id: grant.clientId,
    subject: grant.subject,
    scope: grant.scope,
    resource: grant.resource,
    created_at: new Date(now).toISOString(),
  };
}

function refreshTokenItem(grant: Grant, familyId: string, token: string, now: number) {
  const expiresAt = now + LIFETIMES.refreshTokenSeconds * 1000;
  return {
    ...refreshTokenKey(grant.workspaceId, digest(token)),
    _type: 'oauth_refresh_token',
    family_id: familyId,
    client_id: grant.clientId,
    subject: grant.subject,
    scope: grant.scope,
    resource: grant.resource,
    created_at: new Date(now).toISOString(),
    expires_at: expiresAt,
    ttl: ttlOf(expiresAt),
  };
}

async function tokens(grant: Grant, refreshToken: string): Promise<TokenResponse> {
  const accessToken = await signAccessToken(
    { workspace_id: grant.workspaceId, scope: grant.scope, sub: grant.subject, client_id: grant.clientId, aud: grant.resource },
    LIFETIMES.accessTokenSeconds,
  );
  return { access_token: accessToken, token_type: 'Bearer', expires_in: LIFETIMES.accessTokenSeconds, refresh_token: refreshToken, scope: grant.scope };
}
