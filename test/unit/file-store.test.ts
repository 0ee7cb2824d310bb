import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { isFileKey, workspaceFileKey } from '../../shared/storage/file-store';
import { folderFileStore } from '../../shared/storage/folder-file-store';

describe('workspace file keys', () => {
  test('put every file under its workspace', () => {
    expect(workspaceFileKey('ws_1', 'logos', 'abc.png')).toBe('ws/ws_1/logos/abc.png');
    expect(workspaceFileKey('ws_1', 'exports', 'table=invoices', 'date=2026-11-26', 'part-0.parquet')).toBe('ws/ws_1/exports/table=invoices/date=2026-11-26/part-0.parquet');
  });

  test.each([['..'], ['.'], ['a/b'], ['a\\b'], [''], ['%2e%2e'], ['x'.repeat(201)]])('refuse a part that could leave its folder or is not plain: %j', (part) => {
    expect(() => workspaceFileKey('ws_1', part)).toThrow();
    expect(() => workspaceFileKey(part, 'file')).toThrow();
  });

  test('a key must name a file inside a workspace', () => {
    expect(() => workspaceFileKey('ws_1')).toThrow();
    expect(isFileKey('ws/ws_1/logo.png')).toBe(true);
    expect(isFileKey('ws/ws_1')).toBe(false);
    expect(isFileKey('ws/ws_1/../ws_2/logo.png')).toBe(false);
    expect(isFileKey('/etc/passwd')).toBe(false);
  });
});

describe('the folder store (npm start, tests)', () => {
  const root = mkdtempSync(join(tmpdir(), 'files-'));
  const store = folderFileStore(root);

  test('gives back the bytes and content type it was given, and nothing for a key never written', async () => {
    const key = workspaceFileKey('ws_1', 'logos', 'a.png');
    const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    await store.put(key, bytes, 'image/png');
    expect(await store.get(key)).toEqual({ body: Buffer.from(bytes), contentType: 'image/png' });
    expect(await store.get(workspaceFileKey('ws_2', 'logos', 'a.png'))).toBeUndefined();
  });

  test('a second write replaces the file whole and leaves no partial file behind', async () => {
    const key = workspaceFileKey('ws_1', 'exports', 'e.csv');
    await store.put(key, Buffer.from('first,long,line\n'), 'text/csv');
    await store.put(key, Buffer.from('second\n'), 'text/csv; charset=utf-8');
    expect(await store.get(key)).toEqual({ body: Buffer.from('second\n'), contentType: 'text/csv; charset=utf-8' });
    expect(readdirSync(join(root, 'ws', 'ws_1', 'exports')).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  test('refuses a key that workspaceFileKey could not have made', async () => {
    await expect(store.get('ws/ws_1/../../etc')).rejects.toThrow(/Not a file key/);
    await expect(store.put('elsewhere/file', Buffer.from('x'), 'text/plain')).rejects.toThrow(/Not a file key/);
  });
});
