import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the local runtime keeps its data and keys (git-ignored). LOCAL_DIR overrides it. */
export const localDir = process.env.LOCAL_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.local');
