import type Stripe from 'stripe';

/**
 * Where the SDK sends its requests: `STRIPE_API_URL` (a Stripe stand-in in tests, a local Stripe emulator), else
 * Stripe's own API. Only its scheme, host and port count: the SDK adds the paths (`/v1/…`).
 */
export function stripeApiLocation(url = process.env.STRIPE_API_URL): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!url) return {};
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`STRIPE_API_URL is not a URL: '${url}'`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`STRIPE_API_URL must be http(s), not '${parsed.protocol}'`);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return { protocol, host: parsed.hostname, port: parsed.port || (protocol === 'http' ? 80 : 443) };
}

/**
 * One attempt waits at most this long; with one retry (same idempotency key, the SDK's own backoff) a call stays
 * inside a route Lambda's 10 s. A call that still fails leaves its outcome unknown: the caller resolves it by
 * retrieving the object, never by creating another.
 */
const TIMEOUT_MS = 4_000;
const NETWORK_RETRIES = 1;

const clients = new Map<string, Stripe>();

let sdk: Promise<typeof Stripe> | undefined;

/**
 * The SDK, imported on the first call to Stripe, never at a function's start: most requests of a route that may
 * charge never do (the workspace uses the sandbox, the invoice is paid), and a cold start then reads none of it. The
 * stack ships it as a module of its own beside the functions that use it (lib/bundling.ts, `lazyPackages`).
 */
const stripeSdk = () => (sdk ??= import('stripe').then((module) => module.default));

/** The SDK client of one secret key, built once per Lambda instance (built lazily: no network at import). */
export async function stripeClient(secretKey: string): Promise<Stripe> {
  let client = clients.get(secretKey);
  if (!client) {
    const Stripe = await stripeSdk();
    client = new Stripe(secretKey, { ...stripeApiLocation(), timeout: TIMEOUT_MS, maxNetworkRetries: NETWORK_RETRIES, typescript: true, appInfo: { name: 'billing-api' } });
    clients.set(secretKey, client);
  }
  return client;
}
