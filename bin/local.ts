/**
 * npm start: the whole API on this machine. Starts DynamoDB Local (data under .local/dynamodb, or in memory with
 * --in-memory) unless DYNAMODB_ENDPOINT points at one, creates the table, serves every route, and feeds the table's
 * stream to the stream handler as Lambda would.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureTable } from '../lib/local/create-table';
import { JavaMissing, startDynamoLocal, type RunningDynamo } from '../lib/local/dynamodb-local';
import { loadOrCreateKeys, signToken } from '../lib/local/jwt';
import { localDir } from '../lib/local/paths';
import { parseCommandLine, usageError } from './command-line';

const usage = `usage: npm start [-- --port 3000] [--host 127.0.0.1] [--in-memory]
  the whole API on this machine, on DynamoDB Local (data in .local/dynamodb; Java 17+)
  --port       the port to listen on (default: PORT, else 3000; 0 picks a free one)
  --host       the address to listen on (default 127.0.0.1)
  --in-memory  a throwaway DynamoDB Local: nothing is kept
environment: DYNAMODB_ENDPOINT=http://localhost:8000 uses a DynamoDB you already run and starts nothing;
             LOCAL_DIR moves .local/ (keys, data, the API key);
             EMAIL_TRANSPORT=smtp://127.0.0.1:1025 sends the emails to customers there (default: .eml files in .local/outbox)`;

const { values } = parseCommandLine(usage, {
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    'in-memory': { type: 'boolean', default: false },
  },
});
const port = Number(values.port ?? process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) usageError(usage, `Invalid port: ${values.port ?? process.env.PORT}`);

let dynamo: RunningDynamo | undefined;
try {
  if (!process.env.DYNAMODB_ENDPOINT) {
    dynamo = await startDynamoLocal({ dataDir: values['in-memory'] ? undefined : join(localDir, 'dynamodb') });
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  }
} catch (error) {
  console.error(error instanceof JavaMissing ? error.message : error);
  process.exit(1);
}
process.env.TABLE_NAME ??= 'billing';
process.env.AWS_REGION ??= 'local';
// Keys made on this machine say so: sk_test_…
process.env.API_KEY_ENVIRONMENT ??= 'test';

// OAuth sign-in: the local development sign-in, unless an upstream OpenID provider is configured (docs/oauth.md).
// Client ID Metadata Documents may be served from this machine.
if (!process.env.OAUTH_UPSTREAM_ISSUER) process.env.OAUTH_DEV_SIGN_IN ??= 'true';
process.env.OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK ??= 'true';

const table = await ensureTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME);
// Imported only now: the table client reads DYNAMODB_ENDPOINT when its module loads.
const { startLocalApi } = await import('../lib/local/server');
const keys = await loadOrCreateKeys(localDir);
// Hosted pages: their links are signed with a key kept under .local/ and point at this server (docs/hosted-pages.md).
process.env.PAGES_LINK_KEY_FILE ??= join(localDir, 'pages-link.key');
// Payment providers' secrets (a workspace's Stripe keys) are encrypted with a key kept under .local/ (docs/payments.md).
process.env.PROVIDER_SECRETS_KEY_FILE ??= join(localDir, 'provider-secrets.key');
// With the development routes (lib/local/dev-routes.ts): POST /dev/emails/{id}/bounce.
const api = await startLocalApi({ keys, port, host: values.host, devRoutes: true, dashboard: true });
const token = await signToken(keys, { workspace: 'ws_local', scope: 'read write admin', expiresInSeconds: 24 * 3600 });
// The CLI (npm run cli) finds the local table through this file.
writeFileSync(join(localDir, 'dynamodb-endpoint'), `${process.env.DYNAMODB_ENDPOINT}\n`);
const { localApiKey } = await import('../lib/local/api-key');
const apiKey = await localApiKey(localDir);

// The table's stream feeds its two consumers and webhook deliveries go out, as on AWS. Stream checkpoints sit
// next to the data, unless that is in memory. Webhook endpoints may use plain http to this machine.
process.env.WEBHOOKS_ALLOW_HTTP_LOOPBACK ??= 'true';
// Emails to customers: through EMAIL_TRANSPORT=smtp://host:port when set, else an .eml file each (docs/emails.md).
process.env.EMAIL_TRANSPORT ??= 'outbox';
process.env.EMAIL_OUTBOX_DIR ??= join(localDir, 'outbox');
const { startEventRuntime } = await import('../lib/local/event-runtime');
const checkpointFile = values['in-memory'] ? undefined : join(localDir, 'stream-checkpoints.json');
const events = await startEventRuntime({
  endpoint: process.env.DYNAMODB_ENDPOINT!,
  tableName: process.env.TABLE_NAME,
  from: 'trim_horizon',
  checkpointFile,
  deliveryTickMs: 250,
  scheduleTickMs: 5_000,
});
const streamLine = `polled by its two consumers, functions/streams/messages.ts and usage.ts${checkpointFile ? ' (checkpoints in .local/stream-checkpoints.json, .usage.json)' : ''}; webhook deliveries every 250 ms; scheduled work every 5 s`;

console.log(`Billing API listening on ${api.url}
  DynamoDB: ${process.env.DYNAMODB_ENDPOINT} (${dynamo ? (values['in-memory'] ? 'DynamoDB Local, in memory' : 'DynamoDB Local, data in .local/dynamodb') : 'DYNAMODB_ENDPOINT'}), table '${process.env.TABLE_NAME}' ${table}
  OpenAPI:  ${api.url}/openapi.json
  Dashboard: ${api.url}/dashboard/ (docs/dashboard.md; sign in with the development sign-in below)
  Pages:    ${process.env.PUBLIC_PAGES_URL ?? `${api.url}/pages`} (an invoice's public_url, a quote's url, POST /v1/customers/{id}/portal-sessions)
  Stream:   ${streamLine}
  Emails:   ${process.env.EMAIL_TRANSPORT === 'outbox' ? `written as .eml files to ${process.env.EMAIL_OUTBOX_DIR}` : `EMAIL_TRANSPORT=${process.env.EMAIL_TRANSPORT}`} (docs/emails.md); POST /dev/emails/{id}/bounce bounces a sent one

API key of workspace ws_local (scopes read write admin; kept in .local/api-key), the $TOKEN of the README's examples:

export TOKEN=${apiKey}

Try: curl -H "Authorization: Bearer $TOKEN" ${api.url}/v1/customers

Or, instead of the key, a development token of the same workspace (a JWT, scopes read write admin, valid 24 h;
npm run --silent token makes others):

  ${token}

OAuth:    ${api.url}/.well-known/oauth-authorization-server (sign-in: ${
  process.env.OAUTH_UPSTREAM_ISSUER ? `OpenID provider ${process.env.OAUTH_UPSTREAM_ISSUER}` : 'LOCAL DEVELOPMENT SIGN-IN, no password checked'
})
`);

async function shutdown(): Promise<void> {
  await events.stop();
  await api.close();
  await dynamo?.stop();
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
