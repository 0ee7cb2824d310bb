/**
 * Rate limits of `POST /oauth/token` and `POST /oauth/register` (docs/rate-limits.md, "OAuth endpoints"), through
 * the local server against DynamoDB Local: per source address and per client. Requests leave from distinct loopback
 * addresses (127.0.0.2, 127.0.0.3…), which the local server hands the handlers as `requestContext.http.sourceIp`, as
 * API Gateway does. The clock is stopped a few seconds into a fresh window, so no window ends while a test runs.
 */
import { request } from 'node:http';
import { DEFAULT_RATE_LIMITS, useRateLimits } from '../../shared/http/rate-limit-settings';
import { windowOf } from '../../shared/http/rate-limit';
import { startTestApi, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { assertResponseContract } from '../support/response-contract';

const OAUTH = { perAddress: 4, perClient: 3, windowSeconds: 60 };
const clock = movableClock({ stopped: true });
let api: TestApi;
let client: Client;
let restore: () => void;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  restore = useRateLimits({ ...DEFAULT_RATE_LIMITS, oauth: OAUTH });
});
afterAll(async () => {
  restore();
  await api.close();
  clock.restore();
});
// 5 s into the next window of the OAuth limits: Retry-After is then 55 s.
beforeEach(() => clock.advance(windowOf(clock.now(), OAUTH.windowSeconds).end.getTime() - clock.now().getTime() + 5_000));

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** A request from `address` (a loopback address of this machine), its answer checked against the route's contract. */
function send(address: string, path: string, body: string, headers: Record<string, string>): Promise<Answer> {
  const url = new URL(path, api.url);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', localAddress: address, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        const parsed = text ? JSON.parse(text) : undefined;
        assertResponseContract('POST', path, res.statusCode!, String(res.headers['content-type']), parsed);
        resolve({ status: res.statusCode!, headers: res.headers, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

let sequence = 0;
/** A token request that fails on its own (an unknown code): answered 400 once admitted, 429 when over a limit. */
const tokenRequest = (address: string, clientId = `https://client-${sequence++}.example/metadata.json`) =>
  send(address, '/oauth/token', new URLSearchParams({ grant_type: 'authorization_code', code: 'unknown', client_id: clientId, code_verifier: 'v'.repeat(43) }).toString(), {
    'content-type': 'application/x-www-form-urlencoded',
  });

const registration = (address: string, as: Client = client) =>
  send(address, '/oauth/register', JSON.stringify({ redirect_uris: ['https://app.example.com/cb'], client_name: 'Limited' }), {
    authorization: `Bearer ${as.token}`, 'content-type': 'application/json',
  });

const statuses = async (n: number, run: (i: number) => Promise<Answer>): Promise<number[]> => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await run(i)).status);
  return out;
};

/** The 429 of an OAuth endpoint: the OAuth error form, Retry-After to the window's end, never cached. */
const expectRefused = (answer: Answer) => {
  expect([answer.status, answer.body.error, answer.headers['retry-after'], answer.headers['cache-control']]).toEqual([429, 'temporarily_unavailable', '55', 'no-store']);
  expect(answer.body.error_description).toMatch(/^Too many requests to this endpoint from this (address|client): at most \d+ per 60 s\. Retry after 55 s\.$/);
};

describe('POST /oauth/token', () => {
  it('refuses an address over its limit (429, OAuth error, Retry-After); another address is unaffected', async () => {
    expect(await statuses(OAUTH.perAddress, () => tokenRequest('127.0.0.2'))).toEqual(Array(OAUTH.perAddress).fill(400));
    expectRefused(await tokenRequest('127.0.0.2'));
    expect((await tokenRequest('127.0.0.3')).status).toBe(400);
    // A new window gives the address its budget back.
    clock.advance(OAUTH.windowSeconds * 1000);
    expect((await tokenRequest('127.0.0.2')).status).toBe(400);
  });

  it('refuses a client over its limit from any address; another client is unaffected', async () => {
    const clientId = 'https://busy.example/metadata.json';
    expect(await statuses(OAUTH.perClient, (i) => tokenRequest(`127.0.1.${i + 1}`, clientId))).toEqual(Array(OAUTH.perClient).fill(400));
    const refused = await tokenRequest('127.0.1.9', clientId);
    expectRefused(refused);
    expect(refused.body.error_description).toContain('from this client');
    expect((await tokenRequest('127.0.1.9')).status).toBe(400);
  });

  it('counts nothing when the limits are off', async () => {
    const off = useRateLimits(null);
    try {
      expect(await statuses(OAUTH.perAddress + 2, () => tokenRequest('127.0.2.1'))).toEqual(Array(OAUTH.perAddress + 2).fill(400));
    } finally {
      off();
    }
  });
});

describe('POST /oauth/register', () => {
  it('refuses an address over its limit before registering anything; another address still registers', async () => {
    const other = await api.client();
    const answers = await statuses(OAUTH.perAddress, (i) => registration('127.0.3.1', i % 2 ? client : other));
    expect(answers).toEqual(Array(OAUTH.perAddress).fill(201));
    const refused = await registration('127.0.3.1');
    expectRefused(refused);
    expect(refused.body).not.toHaveProperty('client_id');
    expect((await registration('127.0.3.2', other)).status).toBe(201);
  });

  it('refuses a workspace over its limit from any address', async () => {
    const busy = await api.client();
    expect(await statuses(OAUTH.perClient, (i) => registration(`127.0.4.${i + 1}`, busy))).toEqual(Array(OAUTH.perClient).fill(201));
    expectRefused(await registration('127.0.4.9', busy));
    expect((await registration('127.0.4.9')).status).toBe(201);
  });
});
