/**
 * npm run cli -- <command>: workspaces and API keys, against the local table (the one `npm start` runs) or, with
 * --table and AWS credentials, a deployed one (its name is the stack's `TableName` output). docs/identity.md.
 *
 *   workspace create --name "Acme" [--id ws_acme] [--test]   a workspace and its first API key (read write admin); --test: a test-mode one
 *   api-keys create --workspace ws_… --name CI [--scopes read,write] [--expires-at 2027-01-01T00:00:00Z]
 *   api-keys list --workspace ws_…
 *   api-keys revoke --workspace ws_… --id key_…
 *
 * Options: --table <name> [--region <region>] for a deployed table; --env live|test names the keys (sk_live_…,
 * default live with --table, test locally).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localDir } from '../lib/local/paths';
import { parseCommandLine, usageError } from './command-line';

const usage = `usage: npm run cli -- workspace create --name <name> [--id ws_…] [--test]
       npm run cli -- api-keys create --workspace ws_… --name <name> [--scopes read,write,admin] [--expires-at <ISO date-time>]
       npm run cli -- api-keys list --workspace ws_…
       npm run cli -- api-keys revoke --workspace ws_… --id key_…
options: --table <TableName output> [--region <region>] to use a deployed table (AWS credentials from the environment);
         --env live|test names the keys (default: live with --table, test locally)`;

const { values, positionals } = parseCommandLine(usage, {
  allowPositionals: true,
  options: {
    name: { type: 'string' }, id: { type: 'string' }, workspace: { type: 'string' }, scopes: { type: 'string' },
    'expires-at': { type: 'string' }, table: { type: 'string' }, region: { type: 'string' }, env: { type: 'string' }, test: { type: 'boolean' },
  },
});

function fail(message: string): never {
  return usageError(usage, message);
}

/** Where the table is: a deployed one (--table), else the local one `npm start` wrote the endpoint of. */
function target(): void {
  if (values.table) {
    process.env.TABLE_NAME = values.table;
    if (values.region) process.env.AWS_REGION = values.region;
    process.env.API_KEY_ENVIRONMENT = values.env ?? 'live';
    return;
  }
  const endpointFile = join(localDir, 'dynamodb-endpoint');
  if (!process.env.DYNAMODB_ENDPOINT) {
    if (!existsSync(endpointFile)) fail('No local table found: start the local API first (npm start), or pass --table for a deployed one.');
    process.env.DYNAMODB_ENDPOINT = readFileSync(endpointFile, 'utf8').trim();
  }
  process.env.TABLE_NAME ??= 'billing';
  process.env.AWS_REGION ??= 'local';
  process.env.API_KEY_ENVIRONMENT = values.env ?? 'test';
}

target();
// Imported only now: the table client reads DYNAMODB_ENDPOINT and TABLE_NAME when its module loads.
const { createWorkspace } = await import('../shared/domain/workspaces/workspace');
const { createApiKey, listApiKeys, revokeApiKey } = await import('../shared/domain/api-keys/manage');
const { makeCtx } = await import('../shared/context');
const { WORKSPACE_ID_PATTERN } = await import('../shared/http/request-context');
const { CREDENTIAL_SCOPES } = await import('../shared/schemas/api-keys');

const workspaceCtx = () => {
  if (!values.workspace || !WORKSPACE_ID_PATTERN.test(values.workspace)) fail('--workspace ws_… is required');
  return makeCtx(values.workspace, 'cli');
};

const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));

try {
  switch (positionals.join(' ')) {
    case 'workspace create': {
      if (!values.name) fail('--name is required');
      const { workspace, apiKey } = await createWorkspace(values.name, values.id, undefined, values.test ? 'test' : 'live');
      print({ workspace, api_key: apiKey });
      console.error(`\nThe key is shown once; keep it. Try:\n  curl -H "Authorization: Bearer ${apiKey.key}" <ApiUrl>/v1/customers`);
      break;
    }
    case 'api-keys create': {
      if (!values.name) fail('--name is required');
      const scopes = (values.scopes ?? 'read,write').split(',').map((s) => s.trim());
      const unknown = scopes.filter((s) => !(CREDENTIAL_SCOPES as readonly string[]).includes(s));
      if (unknown.length > 0) fail(`unknown scopes: ${unknown.join(', ')} (scopes are ${CREDENTIAL_SCOPES.join(', ')})`);
      const expiresAt = values['expires-at'];
      if (expiresAt !== undefined && Number.isNaN(Date.parse(expiresAt))) fail('--expires-at must be an ISO 8601 date-time');
      print(await createApiKey(workspaceCtx(), { name: values.name, scopes: scopes as never, ...(expiresAt && { expires_at: new Date(expiresAt).toISOString() }) }));
      break;
    }
    case 'api-keys list':
      print((await listApiKeys(workspaceCtx())).data);
      break;
    case 'api-keys revoke':
      if (!values.id) fail('--id key_… is required');
      print(await revokeApiKey(workspaceCtx(), values.id));
      break;
    default:
      fail(positionals.length === 0 ? 'no command given' : `unknown command: ${positionals.join(' ')}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
