import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx } from '../../context';
import { db, tableName } from '../../db/client';
import { entityKey } from '../../db/keys';
import { clientPointerKey } from '../oauth-clients/register';
import { clientFromMetadataDocument, isMetadataDocumentUrl } from './client-metadata-document';
import { AuthorizationPageError } from './errors';
import { DASHBOARD_CLIENT_ID, firstPartyClient } from './first-party';

/** A client as the authorization server sees it, whichever way it is identified. */
export interface OAuthClient {
  clientId: string;
  kind: 'registered' | 'metadata-document' | 'first-party';
  name?: string;
  logoUri?: string;
  redirectUris: string[];
  /** The scopes the client may ask for (registration or document); none: any scope of the server. */
  scope?: string;
  /** A registered client belongs to the workspace it was registered in, and gets tokens for that one only. */
  workspaceId?: string;
}

const unknownClient = (clientId: string) => new AuthorizationPageError('Unknown client', `No client with client_id '${clientId}'.`);

/** The client named by `client_id`: a registration of POST /oauth/register, or a Client ID Metadata Document URL. */
export async function resolveClient(clientId: string, now: number): Promise<OAuthClient> {
  if (isMetadataDocumentUrl(clientId)) return clientFromMetadataDocument(clientId, now);
  if (clientId === DASHBOARD_CLIENT_ID) {
    const dashboard = firstPartyClient();
    if (!dashboard) throw unknownClient(clientId);
    return dashboard;
  }
  if (!/^cli_[0-9A-Z]{26}$/.test(clientId)) throw unknownClient(clientId);
  const pointer = await db.send(new GetCommand({ TableName: tableName(), Key: clientPointerKey(clientId) }));
  const workspaceId = pointer.Item?.workspace_id as string | undefined;
  if (!workspaceId) throw unknownClient(clientId);
  const found = await db.send(new GetCommand({ TableName: tableName(), Key: entityKey(makeCtx(workspaceId, 'oauth-authorize'), 'CLI', clientId) }));
  const item = found.Item;
  if (!item) throw unknownClient(clientId);
  return {
    clientId,
    kind: 'registered',
    name: item.client_name as string | undefined,
    logoUri: typeof item.logo_uri === 'string' && item.logo_uri.startsWith('https://') ? item.logo_uri : undefined,
    redirectUris: item.redirect_uris as string[],
    scope: item.scope as string | undefined,
    workspaceId,
  };
}
