/**
 * npm run --silent token -- --workspace ws_x [--scope "read write"] [--expires-in 3600]
 * Prints only a bearer token that the local server accepts (signed with the key set under .local/).
 */
import { parseArgs } from 'node:util';
import { loadOrCreateKeys, signToken } from '../lib/local/jwt';
import { localDir } from '../lib/local/paths';
import { WORKSPACE_ID_PATTERN } from '../shared/http/request-context';

const { values } = parseArgs({
  options: {
    workspace: { type: 'string', default: 'ws_local' },
    scope: { type: 'string', default: 'read write' },
    'expires-in': { type: 'string', default: '3600' },
  },
});
const expiresInSeconds = Number(values['expires-in']);
if (!WORKSPACE_ID_PATTERN.test(values.workspace!) || !Number.isInteger(expiresInSeconds) || expiresInSeconds <= 0) {
  console.error('usage: npm run --silent token -- --workspace ws_x [--scope "read write"] [--expires-in 3600]');
  console.error('  the workspace id is ws_ and 1 to 61 letters, digits, _ or -');
  process.exit(2);
}
const keys = await loadOrCreateKeys(localDir);
process.stdout.write(`${await signToken(keys, { workspace: values.workspace!, scope: values.scope, expiresInSeconds })}\n`);
