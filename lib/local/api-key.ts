import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCtx } from '../../shared/context';
import { createApiKey } from '../../shared/domain/api-keys/manage';
import { resolveApiKey } from '../../shared/domain/api-keys/resolve';
import { createWorkspace, getWorkspace } from '../../shared/domain/workspaces/workspace';

export const LOCAL_WORKSPACE = 'ws_local';

/**
 * The API key `npm start` prints: the one kept in `.local/api-key` while it still resolves, else a new one of the
 * local workspace (created on first use). Only the developer's machine holds the key itself; the table, its hash.
 */
export async function localApiKey(dir: string): Promise<string> {
  const file = join(dir, 'api-key');
  const kept = existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
  if (kept && (await resolveApiKey(kept))) return kept;
  const key = (await getWorkspace(LOCAL_WORKSPACE))
    ? (await createApiKey(makeCtx(LOCAL_WORKSPACE, 'local'), { name: 'Local development', scopes: ['read', 'write', 'admin'] })).key
    : (await createWorkspace('Local development', LOCAL_WORKSPACE)).apiKey.key;
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
