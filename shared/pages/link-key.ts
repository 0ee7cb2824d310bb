import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The secret that signs the hosted pages' capability links (docs/hosted-pages.md), one per deployment:
 * - on AWS, the Secrets Manager secret the stack creates (`PAGES_SECRET_ARN`), read once per Lambda instance by
 *   `linkKeyReady()`, which every handler awaits before it may render a link (no network at import time);
 * - under `npm start`, a key file under `.local/` (`PAGES_LINK_KEY_FILE`), created on first use, so links survive
 *   a restart;
 * - otherwise (tests in one process), a random key for the life of the process.
 */
let key: Buffer | undefined;
let loading: Promise<void> | undefined;

const MIN_KEY_BYTES = 32;

function fromFile(path: string): Buffer {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, randomBytes(MIN_KEY_BYTES).toString('hex'), { mode: 0o600 });
  }
  return checked(Buffer.from(readFileSync(path, 'utf8').trim(), 'utf8'), path);
}

function checked(secret: Buffer, origin: string): Buffer {
  if (secret.length < MIN_KEY_BYTES) throw new Error(`The hosted pages' link key (${origin}) must be at least ${MIN_KEY_BYTES} bytes.`);
  return secret;
}

async function fromSecretsManager(arn: string): Promise<Buffer> {
  // Imported here: only the Lambdas that need the secret load the client, and only once.
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const answer = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
  if (!answer.SecretString) throw new Error('The hosted pages secret has no SecretString.');
  return checked(Buffer.from(answer.SecretString, 'utf8'), 'Secrets Manager');
}

/** Resolves once the key is known (at most one Secrets Manager call per instance; a failure is retried next time). */
export function linkKeyReady(): Promise<void> {
  if (key) return Promise.resolve();
  const arn = process.env.PAGES_SECRET_ARN;
  if (!arn) return Promise.resolve();
  loading ??= fromSecretsManager(arn).then(
    (secret) => {
      key = secret;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The key, synchronously: on AWS only after `linkKeyReady()`. */
export function linkKey(): Buffer {
  if (key) return key;
  if (process.env.PAGES_SECRET_ARN) throw new Error('The hosted pages secret is not loaded yet: await linkKeyReady() first.');
  const file = process.env.PAGES_LINK_KEY_FILE;
  if (file) return (key = fromFile(file));
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) throw new Error('PAGES_SECRET_ARN is not set: hosted page links cannot be signed.');
  return (key = randomBytes(MIN_KEY_BYTES));
}
