import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing: `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the
 * bytes of the secret after `whsec_`. During a rotation both secrets sign (space-separated), so receivers
 * that still hold the old one keep verifying.
 */
export const SECRET_PREFIX = 'whsec_';

export const generateSecret = (): string => SECRET_PREFIX + randomBytes(32).toString('base64');

/** Hyperline's (Svix's) secrets are the bare base64 of the key; stored here with the prefix Standard Webhooks names. */
export const prefixedSecret = (secret: string): string => (secret.startsWith(SECRET_PREFIX) ? secret : SECRET_PREFIX + secret);

/** The secret's key bytes, or undefined when it is not `whsec_` + base64 of 24 to 64 bytes. */
export function secretKey(secret: string): Buffer | undefined {
  if (!secret.startsWith(SECRET_PREFIX)) return undefined;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= 24 && key.length <= 64 ? key : undefined;
}

export function signatureHeaders(messageId: string, timestamp: number, body: string, secrets: string[]): Record<string, string> {
  const signatures = secrets.map((secret) => {
    const digest = createHmac('sha256', secretKey(secret)!).update(`${messageId}.${timestamp}.${body}`).digest('base64');
    return `v1,${digest}`;
  });
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.join(' '),
  };
}
