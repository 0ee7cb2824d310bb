/**
 * npm run --silent token -- --workspace ws_x [--scope "read write"] [--expires-in 3600]
 * Prints only a bearer token that the local server accepts (signed with the key set under .local/).
 */
import { loadOrCreateKeys, signToken } from '../lib/local/jwt';
import { localDir } from '../lib/local/paths';
import { WORKSPACE_ID_PATTERN } from '../shared/http/request-context';
import { parseCommandLine, usageError } from './command-line';

const usage = `usage: npm run --silent token -- [--workspace ws_local] [--scope "read write"] [--expires-in 3600]
  prints a development token (a JWT) that npm start accepts, signed with the key set under .local/
  --workspace   the workspace id: ws_ and 1 to 61 letters, digits, _ or - (default ws_local)
  --scope       space-separated scopes among read, write, admin (default "read write")
  --expires-in  lifetime in seconds (default 3600)`;

const { values } = parseCommandLine(usage, {
  options: {
    workspace: { type: 'string', default: 'ws_local' },
    scope: { type: 'string', default: 'read write' },
    'expires-in': { type: 'string', default: '3600' },
  },
});
const expiresInSeconds = Number(values['expires-in']);
if (!WORKSPACE_ID_PATTERN.test(values.workspace!)) usageError(usage, `--workspace: '${values.workspace}' is not a workspace id (ws_ and 1 to 61 letters, digits, _ or -)`);
if (!Number.isInteger(expiresInSeconds) || expiresInSeconds <= 0) usageError(usage, `--expires-in: '${values['expires-in']}' is not a positive whole number of seconds`);
const keys = await loadOrCreateKeys(localDir);
process.stdout.write(`${await signToken(keys, { workspace: values.workspace!, scope: values.scope, expiresInSeconds })}\n`);
