import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isFileKey, type FileStore } from './file-store';

/**
 * Files under a local folder, each beside a `.type` file holding its content type. A file is written to a
 * temporary name and renamed, so a reader never sees half of one.
 */
export function folderFileStore(root: string): FileStore {
  const pathOf = (key: string): string => {
    if (!isFileKey(key)) throw new Error(`Not a file key: ${JSON.stringify(key)}`);
    return join(root, ...key.split('/'));
  };
  return {
    async put(key, body, contentType) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const partial = `${path}.${process.pid}.${Date.now()}.partial`;
      await writeFile(`${path}.type`, contentType);
      await writeFile(partial, body);
      await rename(partial, path);
    },
    async get(key) {
      const path = pathOf(key);
      try {
        const [body, contentType] = await Promise.all([readFile(path), readFile(`${path}.type`, 'utf8')]);
        return { body, contentType };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
  };
}
