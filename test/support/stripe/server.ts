import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { StandInAccount, StripeFailure, stripeId } from './account';
import { fixture } from './fixtures';
import { expandOf, parseForm, text, type Form } from './form';

/** One request as the stand-in saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  idempotencyKey?: string;
  /** Answered from the idempotency store (a retry of a request already done). */
  replayed: boolean;
  status: number;
}

export interface StandInKeys {
  secretKey: string;
  publishableKey: string;
  account: StandInAccount;
}

export interface StripeStandIn {
  /** What `STRIPE_API_URL` is set to. */
  url: string;
  /** A new account and its keys, in test mode (`sk_test_…`) or live mode (`sk_live_…`). */
  newAccount(mode?: 'test' | 'live'): StandInKeys;
  /** The account a secret key belongs to. */
  accountOf(secretKey: string): StandInAccount;
  /** Every request received, in order. */
  readonly requests: SeenRequest[];
  /**
   * The next `times` POST requests matching `path` are carried out, then their connection is cut before the answer:
   * Stripe accepted them, the caller never learned it (a network failure or a crash mid-call).
   */
  cutAfterProcessing(path: RegExp, times?: number): void;
  /** Stripe prunes idempotency keys after 24 hours: every key is forgotten, as if that much time had passed. */
  expireIdempotencyKeys(): void;
  /** A webhook as Stripe sends it: the event's JSON and its `Stripe-Signature` header for that signing secret. */
  signedEvent(type: string, object: { id: string }, secret: string, account?: StandInAccount): { payload: string; signature: string; event: Stripe.Event };
  /**
   * From now on, what a browser changes at this account (Stripe.js, with the publishable key: a PaymentIntent
   * confirmed or authenticated, a SetupIntent confirmed) is sent as Stripe sends it, signed, to `url`: a 409 (the
   * service still recording the charge) is sent again, as Stripe retries. Each delivery is in `deliveries`.
   */
  sendWebhooks(account: StandInAccount, url: string, secret: string): void;
  readonly deliveries: WebhookDelivery[];
  close(): Promise<void>;
}

export interface WebhookDelivery {
  type: string;
  objectId: string;
  /** The endpoint's last answer (0 while under way or unreachable). */
  status: number;
}

type Answer = { status: number; body: unknown };
/**
 * `client`: the route also takes the publishable key, as Stripe.js calls it from the browser: `open` needs nothing
 * more (creating a PaymentMethod), `intent` needs the intent's `client_secret`.
 */
type Route = { method: string; pattern: RegExp; run: (account: StandInAccount, form: Form, id: string) => unknown; client?: 'open' | 'intent' };

/** Stripe refuses to detach a method attached to no customer. */
function detach(account: StandInAccount, id: string): Stripe.PaymentMethod {
  if (!account.paymentMethod(id).customer) {
    throw new StripeFailure(400, { type: 'invalid_request_error', code: 'payment_method_unexpected_state', message: 'The payment method you provided is not attached to a customer so detachment is impossible.' });
  }
  return account.detachPaymentMethod(id);
}

/** The stand-in's 3-D Secure challenge, answered: what Stripe's test page (hooks.stripe.com) does when "Complete" is clicked. */
function authenticate(account: StandInAccount, id: string): Stripe.PaymentIntent {
  if (account.paymentIntent(id).status !== 'requires_action') throw new StripeFailure(400, { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: `${id} awaits no authentication.` });
  return account.completeAuthentication(id);
}

const ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/v1\/account$/, run: (a) => a.account() },
  { method: 'GET', pattern: /^\/v1\/balance$/, run: (a) => ({ ...fixture('balance'), livemode: a.livemode }) },
  { method: 'POST', pattern: /^\/v1\/customers$/, run: (a, form) => a.createCustomer(form) },
  { method: 'GET', pattern: /^\/v1\/customers\/([^/]+)$/, run: (a, _f, id) => a.customer(id) },
  { method: 'POST', pattern: /^\/v1\/payment_methods$/, run: (a, form) => a.createPaymentMethod(form), client: 'open' },
  { method: 'GET', pattern: /^\/v1\/payment_methods\/([^/]+)$/, run: (a, _f, id) => a.paymentMethod(id) },
  { method: 'POST', pattern: /^\/v1\/payment_methods\/([^/]+)\/attach$/, run: (a, form, id) => a.attachPaymentMethod(id, form) },
  { method: 'POST', pattern: /^\/v1\/payment_methods\/([^/]+)\/detach$/, run: (a, _f, id) => detach(a, id) },
  { method: 'POST', pattern: /^\/v1\/setup_intents$/, run: (a, form) => a.createSetupIntent(form) },
  { method: 'GET', pattern: /^\/v1\/setup_intents\/([^/]+)$/, run: (a, _f, id) => a.setupIntent(id), client: 'intent' },
  { method: 'POST', pattern: /^\/v1\/setup_intents\/([^/]+)\/confirm$/, run: (a, form, id) => a.confirmSetupIntent(id, text(form, 'test_method') ?? ''), client: 'intent' },
  { method: 'POST', pattern: /^\/v1\/payment_intents$/, run: (a, form) => a.createPaymentIntent(form) },
  { method: 'GET', pattern: /^\/v1\/payment_intents$/, run: (a, query) => a.listPaymentIntents(query) },
  { method: 'GET', pattern: /^\/v1\/payment_intents\/([^/]+)$/, run: (a, _f, id) => a.paymentIntent(id), client: 'intent' },
  { method: 'POST', pattern: /^\/v1\/payment_intents\/([^/]+)\/confirm$/, run: (a, form, id) => a.confirmPaymentIntent(id, form), client: 'intent' },
  { method: 'POST', pattern: /^\/v1\/payment_intents\/([^/]+)\/stand_in_authenticate$/, run: (a, _f, id) => authenticate(a, id), client: 'intent' },
  { method: 'GET', pattern: /^\/v1\/disputes\/([^/]+)$/, run: (a, _f, id) => a.dispute(id) },
  { method: 'POST', pattern: /^\/v1\/refunds$/, run: (a, form) => a.createRefund(form) },
  { method: 'GET', pattern: /^\/v1\/refunds$/, run: (a, query) => a.listRefunds(query) },
];

/** What Stripe keeps of an idempotent request: what it was asked, and what it answered. */
interface Remembered {
  fingerprint: string;
  answer: Answer;
}

const randomKeyBody = () => randomBytes(24).toString('base64url').replace(/[-_]/g, 'x');

/**
 * A Stripe stand-in for tests (never part of the product): a small `node:http` server on 127.0.0.1 that the official
 * SDK reaches through `STRIPE_API_URL`. It answers the endpoints the service calls with Stripe's own objects
 * (fixtures3.json, members set from the request, typed as the SDK's types), keeps Stripe's `Idempotency-Key` rules
 * (same key and parameters: the same answer, replayed; same key, other parameters: a 400 `idempotency_error`),
 * behaves as Stripe's test payment methods do, and signs webhooks as Stripe signs them.
 */
export async function startStripeStandIn(): Promise<StripeStandIn> {
  const keys = new Map<string, StandInAccount>();
  const publishableKeys = new Map<string, StandInAccount>();
  const endpoints = new Map<StandInAccount, { url: string; secret: string }>();
  const deliveries: WebhookDelivery[] = [];
  const remembered = new Map<string, Remembered>();
  const requests: SeenRequest[] = [];
  const cuts: Array<{ path: RegExp; times: number }> = [];
  const signer = new Stripe('sk_test_signer');

  function answer(method: string, url: URL, account: StandInAccount, form: Form, publishable: boolean): Answer {
    for (const route of ROUTES) {
      const match = route.method === method ? route.pattern.exec(url.pathname) : null;
      if (!match) continue;
      try {
        // A GET's parameters are its query (a list's filters).
        const input = method === 'GET' ? { ...form, ...Object.fromEntries(url.searchParams) } : form;
        const id = decodeURIComponent(match[1] ?? '');
        if (publishable) clientMayCall(account, route, id, input);
        const object = route.run(account, input, id);
        const expand = method === 'GET' ? expandOf(url.searchParams) : expandOf(form);
        return { status: 200, body: expanded(account, structuredClone(object), expand) };
      } catch (error) {
        if (error instanceof StripeFailure) return { status: error.status, body: { error: structuredClone(error.error) } };
        throw error;
      }
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url.pathname}).` } } };
  }

  /** A publishable key reaches only what Stripe.js may: the client routes, an intent only with its client secret. */
  function clientMayCall(account: StandInAccount, route: Route, id: string, form: Form): void {
    const refuse = (message: string) => new StripeFailure(401, { type: 'invalid_request_error', message });
    if (!route.client) throw refuse('This API call cannot be made with a publishable API key. Please use a secret API key.');
    if (route.client === 'open') return;
    const intent = account.paymentIntents.get(id) ?? account.setupIntents.get(id);
    if (!intent || text(form, 'client_secret') !== intent.client_secret) throw new StripeFailure(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such intent: '${id}'` });
  }

  function handle(request: IncomingMessage, body: string): Answer & { idempotencyKey?: string; replayed: boolean } {
    const method = request.method ?? 'GET';
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const secretKey = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const publishable = secretKey.startsWith('pk_');
    const account = (publishable ? publishableKeys : keys).get(secretKey);
    if (!account) {
      const shown = secretKey ? `${secretKey.slice(0, 8)}${'*'.repeat(Math.max(0, secretKey.length - 12))}${secretKey.slice(-4)}` : '';
      return { status: 401, body: { error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${shown}` } }, replayed: false };
    }
    const form = parseForm(body);
    const idempotencyKey = method === 'POST' ? (request.headers['idempotency-key'] as string | undefined) : undefined;
    if (!idempotencyKey) return { ...answer(method, url, account, form, publishable), replayed: false };
    // Stripe keeps idempotency keys per account; the fingerprint is the request itself.
    const storeKey = `${account.id} ${idempotencyKey}`;
    const fingerprint = createHash('sha256').update(`${method} ${url.pathname}?${url.search}\n${body}`).digest('hex');
    const earlier = remembered.get(storeKey);
    if (earlier && earlier.fingerprint !== fingerprint) {
      const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
      return { status: 400, body: { error: { type: 'idempotency_error', message } }, idempotencyKey, replayed: false };
    }
    if (earlier) return { ...earlier.answer, idempotencyKey, replayed: true };
    const fresh = answer(method, url, account, form, publishable);
    // Stripe does not keep answers to requests that never began (a 5xx may be retried with the key).
    if (fresh.status < 500) remembered.set(storeKey, { fingerprint, answer: fresh });
    return { ...fresh, idempotencyKey, replayed: false };
  }

  /** What a browser changed (a publishable key's POST), sent to the account's endpoint as Stripe's event of it. */
  function notify(request: IncomingMessage, object: unknown): void {
    const account = publishableKeys.get(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '');
    const endpoint = account && endpoints.get(account);
    const type = endpoint && eventTypeOf(object as { object?: string; status?: string; last_payment_error?: unknown });
    if (!type) return;
    const delivery: WebhookDelivery = { type, objectId: (object as { id: string }).id, status: 0 };
    deliveries.push(delivery);
    void (async () => {
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const { payload, signature } = signed(type, object as { id: string }, endpoint.secret, account);
        const response = await fetch(endpoint.url, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload }).catch(() => undefined);
        delivery.status = response?.status ?? 0;
        await response?.arrayBuffer();
        if (delivery.status !== 409) return;
        await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1))); // Stripe's retry, compressed
      }
    })();
  }

  function signed(type: string, object: { id: string }, secret: string, account?: StandInAccount) {
    const event: Stripe.Event = {
      ...fixture('event'), id: stripeId('evt'), type: type as Stripe.Event['type'], created: Math.floor(Date.now() / 1000),
      livemode: account?.livemode ?? false, account: account?.id, data: { object: structuredClone(object) as never },
    } as Stripe.Event;
    const payload = JSON.stringify(event);
    return { payload, signature: signer.webhooks.generateTestHeaderString({ payload, secret }), event };
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      // Synchronous from here to the answer: concurrent requests with one key are decided one after the other.
      const result = handle(request, Buffer.concat(chunks).toString('utf8'));
      // A decline (402) carries the PaymentIntent it left in `requires_payment_method`.
      const changed = result.status === 200 ? result.body : (result.body as { error?: { payment_intent?: unknown } }).error?.payment_intent;
      if (request.method === 'POST' && changed) notify(request, changed);
      const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
      requests.push({ method: request.method ?? 'GET', path, idempotencyKey: result.idempotencyKey, replayed: result.replayed, status: result.status });
      // Only a POST changes anything at Stripe: a read cut short has nothing to have accepted.
      const cut = request.method === 'POST' && cuts.find((c) => c.times > 0 && c.path.test(path));
      if (cut) {
        cut.times -= 1;
        request.socket.destroy();
        return;
      }
      response.writeHead(result.status, {
        'content-type': 'application/json',
        'request-id': stripeId('req'),
        'stripe-version': Stripe.API_VERSION,
        ...(result.idempotencyKey && { 'idempotency-key': result.idempotencyKey }),
        ...(result.replayed && { 'idempotent-replayed': 'true' }),
      });
      response.end(JSON.stringify(result.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    newAccount(mode = 'test') {
      const account = new StandInAccount(stripeId('acct').slice(0, 21), mode === 'live');
      const secretKey = `sk_${mode}_${randomKeyBody()}`;
      const publishableKey = `pk_${mode}_${randomKeyBody()}`;
      keys.set(secretKey, account);
      publishableKeys.set(publishableKey, account);
      return { secretKey, publishableKey, account };
    },
    accountOf(secretKey) {
      const account = keys.get(secretKey);
      if (!account) throw new Error('the stand-in issued no such key');
      return account;
    },
    cutAfterProcessing(path, times = 1) {
      cuts.push({ path, times });
    },
    expireIdempotencyKeys() {
      remembered.clear();
    },
    signedEvent: signed,
    sendWebhooks(account, url, secret) {
      endpoints.set(account, { url, secret });
    },
    deliveries,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The event Stripe sends about an intent in this state (none for a state no event reports). */
function eventTypeOf(object: { object?: string; status?: string; last_payment_error?: unknown }): string | undefined {
  if (object.object === 'setup_intent') return object.status === 'succeeded' ? 'setup_intent.succeeded' : undefined;
  if (object.object !== 'payment_intent') return undefined;
  if (object.status === 'requires_payment_method') return object.last_payment_error ? 'payment_intent.payment_failed' : undefined;
  return { succeeded: 'payment_intent.succeeded', processing: 'payment_intent.processing', requires_action: 'payment_intent.requires_action' }[object.status ?? ''];
}

const STORES = { ch: 'charges', txn: 'balanceTransactions', pm: 'paymentMethods', cus: 'customers', pi: 'paymentIntents' } as const;

/** Stripe's `expand`: each dotted path's id replaced by its object (`latest_charge.balance_transaction`). */
function expanded(account: StandInAccount, object: unknown, paths: string[]): unknown {
  for (const path of paths) {
    let node = object as Record<string, unknown>;
    for (const member of path.split('.')) {
      const value = node?.[member];
      if (typeof value === 'string') {
        const store = STORES[value.split('_')[0] as keyof typeof STORES];
        const found = store && account[store].get(value);
        if (found) node[member] = structuredClone(found);
      }
      node = node?.[member] as Record<string, unknown>;
    }
  }
  return object;
}
