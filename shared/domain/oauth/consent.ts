import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '../../db/client';
import { forgetRequest, pendingRequest, redirectWith, type PendingRequest } from './authorization-request';
import { ADMIN_SCOPE } from './first-party';
import { AuthorizationPageError } from './errors';
import { codeKey, pendingRequestKey, ttlOf } from './keys';
import { digest, sameSecret, workspaceToken } from './secrets';
import { LIFETIMES } from './settings';

export interface ConsentForm {
  request?: string;
  csrf?: string;
  workspace?: string;
  decision?: string;
  /** The admin box of the consent page (shown to the first-party dashboard only): `yes` when ticked. */
  grant_admin?: string;
}

/** `admin` stays in the grant only when the person ticked it, and only ever for the first-party client. */
function withoutAdminUnlessTicked(request: PendingRequest, form: ConsentForm): string {
  const keepAdmin = request.client_kind === 'first-party' && form.grant_admin === 'yes';
  return request.scope.split(' ').filter((s) => s !== ADMIN_SCOPE || keepAdmin).join(' ');
}

/**
 * The person's answer on the consent page. The form must come from the browser that started the flow (its cookie)
 * and carry the page's CSRF token; the person must have signed in and chosen one of their workspaces. Approval
 * turns the pending request into an authorization code under that workspace, in one transaction that also deletes
 * the request (a second submission finds nothing). Returns where the browser goes: the client's redirect URI.
 */
export async function decide(form: ConsentForm, browserSecret: string | undefined, now: number): Promise<string> {
  const request = await pendingRequest(form.request, browserSecret, now);
  const requestId = form.request!;
  if (!sameSecret(form.csrf, request.csrf)) throw new AuthorizationPageError('Invalid form', 'The form is not the one this page showed (CSRF check failed).', 403);
  if (!request.subject || !request.workspaces) throw new AuthorizationPageError('Not signed in', 'Sign in before answering.', 403);

  if (form.decision !== 'approve') {
    await forgetRequest(requestId);
    return redirectWith(request.redirect_uri, { error: 'access_denied', error_description: 'The person declined.', state: request.state });
  }
  const workspaceId = form.workspace;
  if (!workspaceId || !request.workspaces.includes(workspaceId)) {
    throw new AuthorizationPageError('Invalid workspace', 'Choose one of the workspaces offered.', 403);
  }
  const code = workspaceToken(workspaceId);
  const expiresAt = now + LIFETIMES.codeSeconds * 1000;
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: tableName(), Key: pendingRequestKey(requestId), ConditionExpression: 'attribute_exists(subject)' } },
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...codeKey(workspaceId, digest(code)),
                _type: 'oauth_code',
                client_id: request.client_id,
                redirect_uri: request.redirect_uri,
                code_challenge: request.code_challenge,
                resource: request.resource,
                scope: withoutAdminUnlessTicked(request, form),
                subject: request.subject,
                created_at: new Date(now).toISOString(),
                expires_at: expiresAt,
                ttl: ttlOf(expiresAt),
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) throw new AuthorizationPageError('Already answered', 'This request was already answered.', 409);
    throw error;
  }
  return redirectWith(request.redirect_uri, { code, state: request.state });
}
