import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Before the module loads: the key of `npm start`, kept in a file (.local/provider-secrets.key there).
const file = join(mkdtempSync(join(tmpdir(), 'secret-box-')), 'provider-secrets.key');
process.env.PROVIDER_SECRETS_KEY_FILE = file;
const { openSecret, sealSecret } = await import('../../shared/domain/payment-providers/secret-box');

describe('provider secrets at rest (local key)', () => {
  it('seals a secret that only the same workspace opens, with a fresh nonce each time', async () => {
    const sealed = await sealSecret('ws_a', 'sk_test_secret0value');
    expect(sealed.scheme).toBe('local');
    expect(Buffer.from(sealed.ciphertext, 'base64').toString('latin1')).not.toContain('sk_test_secret0value');
    expect(await openSecret('ws_a', sealed)).toBe('sk_test_secret0value');
    expect((await sealSecret('ws_a', 'sk_test_secret0value')).ciphertext).not.toBe(sealed.ciphertext);
    // Another workspace's item copied under ours does not open.
    await expect(openSecret('ws_b', sealed)).rejects.toThrow();
  });

  it('refuses a changed ciphertext', async () => {
    const sealed = await sealSecret('ws_a', 'whsec_signing0secret');
    const bytes = Buffer.from(sealed.ciphertext, 'base64');
    bytes[bytes.length - 1]! ^= 1;
    await expect(openSecret('ws_a', { ...sealed, ciphertext: bytes.toString('base64') })).rejects.toThrow();
  });

  it('keeps its key in the file, readable by its owner only, so secrets survive a restart', () => {
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o077).toBe(0);
  });
});
