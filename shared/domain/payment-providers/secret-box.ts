import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { KMSClient } from '@aws-sdk/client-kms';

/**
 * Secrets the service keeps for a workspace (a payment provider's secret key, its webhook signing secret), encrypted
 * at rest with the workspace bound in (another workspace's item cannot be made to decrypt as yours):
 * - on AWS, by the stack's KMS key for provider secrets (`PROVIDER_SECRETS_KEY_ID`), `workspace_id` as the
 *   encryption context; the plaintext never reaches the table;
 * - under `npm start`, AES-256-GCM with a key kept under `.local/` (`PROVIDER_SECRETS_KEY_FILE`, created on first
 *   use), the workspace as associated data, so secrets survive a restart;
 * - otherwise (tests in one process), the same with a random key for the life of the process.
 */
export interface SealedSecret {
  /** Which of the mechanisms above sealed it. */
  scheme: 'kms' | 'local';
  /** Base64. */
  ciphertext: string;
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

let localKey: Buffer | undefined;

function localSecretsKey(): Buffer {
  if (localKey) return localKey;
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) throw new Error('PROVIDER_SECRETS_KEY_ID is not set: provider secrets cannot be sealed.');
  const file = process.env.PROVIDER_SECRETS_KEY_FILE;
  if (!file) return (localKey = randomBytes(KEY_BYTES));
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(KEY_BYTES).toString('hex'), { mode: 0o600 });
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  if (key.length !== KEY_BYTES) throw new Error(`The provider secrets key (${file}) must be ${KEY_BYTES} bytes in hex.`);
  return (localKey = key);
}

let kms: Promise<KMSClient> | undefined;
// Imported on first use: only the functions that seal or open secrets load the client.
const kmsClient = () => (kms ??= import('@aws-sdk/client-kms').then(({ KMSClient }) => new KMSClient({})));

export async function sealSecret(workspaceId: string, plaintext: string): Promise<SealedSecret> {
  const keyId = process.env.PROVIDER_SECRETS_KEY_ID;
  if (keyId) {
    const { EncryptCommand } = await import('@aws-sdk/client-kms');
    const { CiphertextBlob } = await (await kmsClient()).send(
      new EncryptCommand({ KeyId: keyId, Plaintext: Buffer.from(plaintext, 'utf8'), EncryptionContext: { workspace_id: workspaceId } }),
    );
    return { scheme: 'kms', ciphertext: Buffer.from(CiphertextBlob!).toString('base64') };
  }
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', localSecretsKey(), iv).setAAD(Buffer.from(workspaceId, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { scheme: 'local', ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64') };
}

/** Opened secrets, per Lambda instance: a charge needs no KMS round trip once its workspace's key was opened. */
const opened = new Map<string, Promise<string>>();
const MAX_OPENED = 1_000;

export function openSecret(workspaceId: string, sealed: SealedSecret): Promise<string> {
  const cacheKey = `${workspaceId} ${sealed.ciphertext}`;
  let plaintext = opened.get(cacheKey);
  if (!plaintext) {
    if (opened.size >= MAX_OPENED) opened.clear();
    // A failure to open is a rejection, never a synchronous throw.
    plaintext = sealed.scheme === 'kms' ? openWithKms(workspaceId, sealed.ciphertext) : new Promise((resolve) => resolve(openLocally(workspaceId, sealed.ciphertext)));
    plaintext.catch(() => opened.delete(cacheKey));
    opened.set(cacheKey, plaintext);
  }
  return plaintext;
}

async function openWithKms(workspaceId: string, ciphertext: string): Promise<string> {
  const { DecryptCommand } = await import('@aws-sdk/client-kms');
  const { Plaintext } = await (await kmsClient()).send(
    new DecryptCommand({ KeyId: process.env.PROVIDER_SECRETS_KEY_ID, CiphertextBlob: Buffer.from(ciphertext, 'base64'), EncryptionContext: { workspace_id: workspaceId } }),
  );
  return Buffer.from(Plaintext!).toString('utf8');
}

function openLocally(workspaceId: string, ciphertext: string): string {
  const bytes = Buffer.from(ciphertext, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', localSecretsKey(), bytes.subarray(0, IV_BYTES)).setAAD(Buffer.from(workspaceId, 'utf8'));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
