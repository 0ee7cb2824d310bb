import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { WORKSPACE_ID_PATTERN } from '../../http/request-context';

/**
 * An API key: `sk_<env>_<body>`, the body being base62 of the workspace id, a zero byte and 24 random bytes (192 bits).
 * Like Stripe's keys, a key names its account (here the workspace), so resolving it is one GetItem under that
 * workspace's keys, and every table key still begins with the workspace. The workspace a key names is only trusted
 * once the stored hash of the whole key matches: forging the name gains nothing without the random part.
 */
export const API_KEY_PATTERN = /^sk_([a-z]{1,10})_([0-9A-Za-z]{20,200})$/;

const RANDOM_BYTES = 24;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The environment the keys of this deployment name (`sk_live_…`, `sk_test_…`): `API_KEY_ENVIRONMENT`, else `live`. */
export const keyEnvironment = (): string => process.env.API_KEY_ENVIRONMENT || 'live';

export function newApiKey(workspaceId: string, environment = keyEnvironment()): string {
  const body = Buffer.concat([Buffer.from(workspaceId, 'utf8'), Buffer.from([0]), randomBytes(RANDOM_BYTES)]);
  return `sk_${environment}_${toBase62(body)}`;
}

/** The workspace a key names, or undefined when the text is not a well-formed key. */
export function workspaceNamedBy(key: string): string | undefined {
  const match = API_KEY_PATTERN.exec(key);
  if (!match) return undefined;
  const bytes = fromBase62(match[2]!);
  const zero = bytes.indexOf(0);
  if (zero < 0 || bytes.length - zero - 1 !== RANDOM_BYTES) return undefined;
  const workspace = bytes.subarray(0, zero).toString('utf8');
  return WORKSPACE_ID_PATTERN.test(workspace) ? workspace : undefined;
}

/**
 * SHA-256 of the whole key, hex. A plain hash suffices (no salt, no slow KDF): the key carries 192 random bits, so
 * no dictionary or brute force applies, as with GitHub's and Stripe's tokens.
 */
export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** The key's id: derived from its hash, so the key alone finds its item (`key_` + the first 128 bits of the hash). */
export const apiKeyIdOf = (hash: string): string => `key_${hash.slice(0, 32)}`;

export const sameHash = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** What a listing may show of a key: its prefix and last four characters, as Stripe's dashboard does. */
export const redactApiKey = (key: string): string => `${key.slice(0, key.indexOf('_', 3) + 1)}…${key.slice(-4)}`;

function toBase62(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let text = '';
  while (value > 0n) {
    text = BASE62[Number(value % 62n)] + text;
    value /= 62n;
  }
  return text;
}

function fromBase62(text: string): Buffer {
  let value = 0n;
  for (const char of text) value = value * 62n + BigInt(BASE62.indexOf(char));
  const hex = value.toString(16);
  return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
}
