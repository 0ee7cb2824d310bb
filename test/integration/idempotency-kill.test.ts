/**
 * The measured fault of issue 12: the process serving a wallet load is killed right after the load committed, before
 * it answers. The client's retry with the same `Idempotency-Key`, more than 60 s later and against a fresh server,
 * replays the load: the wallet is loaded once (docs/idempotency.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { LOCK_TIMEOUT_MS } from '../../shared/http/idempotency';
import { movableClock } from '../support/clock';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');

let api: TestApi;
let client: Client;
const clock = movableClock();

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(async () => {
  await api.close();
  clock.restore();
});

/** A server in its own process that exits (code 70) right after its first committed transaction. */
async function crashingServer(): Promise<{ url: string; child: ChildProcess; exited: Promise<number | null> }> {
  const child = spawn(tsx, [join('test', 'support', 'crash-server.ts')], {
    env: { ...process.env, TEST_JWT_KEYS: JSON.stringify(api.keys), TEST_EXIT_AFTER_COMMIT: '1', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', (code) => reject(new Error(`the server exited early (${code})`)));
  });
  return { url, child, exited };
}

const load = (url: string, walletId: string, key: string) =>
  fetch(`${url}/v1/wallets/${walletId}/load`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ type: 'free', amount: 1_000, comment: 'top-up 42' }),
  });

it('a wallet load committed by a killed server is replayed, not loaded again, by a retry against a fresh server', async () => {
  const payer = (await client.post('/v1/customers', { name: 'Payer', currency: 'EUR' })).body;
  const wallet = (await client.post('/v1/wallets', { customer_id: payer.id })).body;
  const server = await crashingServer();

  await expect(load(server.url, wallet.id, 'load-42')).rejects.toThrow(); // the connection dies with the process
  expect(await server.exited).toBe(70);
  const ledger = async () => (await client.get(`/v1/wallets/${wallet.id}/transactions`)).body;
  expect((await ledger()).meta.total).toBe(1); // committed, never acknowledged

  clock.setOffset(LOCK_TIMEOUT_MS + 5_000);
  const retry = await load(api.url, wallet.id, 'load-42');
  expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
  expect(await retry.json()).toMatchObject({ id: wallet.id, balance: { amount: 1_000 } });
  const after = await ledger();
  expect(after.meta.total).toBe(1);
  expect(after.data[0]).toMatchObject({ type: 'credit_free', amount: 1_000, comment: 'top-up 42' });
  expect((await client.get(`/v1/wallets/${wallet.id}`)).body.balance).toEqual({ amount: 1_000 });
}, 60_000);
