import { resolve } from 'node:path';

/** A stored file: its bytes and the content type it was stored with. */
export interface StoredFile {
  body: Buffer;
  contentType: string;
}

/**
 * Where the service keeps files too large or too binary for the table (an entity's logo, an export): an S3 bucket
 * on AWS, a folder locally. Keys are made by `workspaceFileKey`, so every file sits under its workspace.
 */
export interface FileStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** `undefined` when no file has the key. */
  get(key: string): Promise<StoredFile | undefined>;
}

/** A key part: letters, digits and `._=-` (`date=2026-11-26` is a Hive partition), never `.` or `..` alone. */
const safePart = /^(?!\.{1,2}$)[A-Za-z0-9._=-]{1,200}$/;

/** The key of a workspace's file: `ws/<workspace>/<parts…>`, each part checked (no separator, no `..`). */
export function workspaceFileKey(workspaceId: string, ...parts: string[]): string {
  for (const part of [workspaceId, ...parts]) {
    if (!safePart.test(part)) throw new Error(`Not a file key part: ${JSON.stringify(part)}`);
  }
  if (parts.length === 0) throw new Error('A workspace file key needs at least one part after the workspace');
  return ['ws', workspaceId, ...parts].join('/');
}

/** Whether a key is one `workspaceFileKey` can make: the stores refuse any other, so no key escapes its folder. */
export const isFileKey = (key: string): boolean => {
  const [prefix, ...parts] = key.split('/');
  return prefix === 'ws' && parts.length >= 2 && parts.every((part) => safePart.test(part));
};

let configured: { setting: string; store: FileStore } | undefined;
let override: FileStore | undefined;

/**
 * The process's file store: `FILES_BUCKET` (the stack sets it) stores in that S3 bucket; otherwise files go under
 * `FILES_DIR` (default `.local/files/`), what `npm start` and the tests use. Built on first use: the S3 client
 * loads then (a lazy package, lib/bundling.ts).
 */
export async function fileStore(): Promise<FileStore> {
  if (override) return override;
  const bucket = process.env.FILES_BUCKET;
  const setting = bucket ? `s3:${bucket}` : `dir:${resolve(process.env.FILES_DIR ?? '.local/files')}`;
  if (configured?.setting !== setting) {
    const store = bucket
      ? (await import('./s3-file-store')).s3FileStore(bucket)
      : (await import('./folder-file-store')).folderFileStore(setting.slice('dir:'.length));
    configured = { setting, store };
  }
  return configured.store;
}

/** Tests wrap the configured store (e.g. to fail one write); `undefined` restores it. */
export function useFileStore(store: FileStore | undefined): void {
  override = store;
}
