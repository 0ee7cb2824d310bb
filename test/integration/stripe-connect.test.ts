import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx } from '../../shared/context';
import { db, tableName } from '../../shared/db/client';
import { connectionKey } from '../../shared/domain/payment-providers/connection';
import type { Client } from '../support/api';
import { startStripeTestApi, type StripeTestApi } from '../support/stripe/api';
import { describeWithStripeFixtures } from '../support/stripe/fixtures';

describeWithStripeFixtures('connecting a workspace to Stripe', () => {
  let env: StripeTestApi;
  beforeAll(async () => {
    env = await startStripeTestApi();
  });
  afterAll(() => env.close());

  const connect = (client: Client, body: Record<string, unknown>) => client.put('/v1/payment-providers/stripe', body);
  const stored = async (client: Client) =>
    (await db.send(new GetCommand({ TableName: tableName(), Key: connectionKey(makeCtx(client.workspace, 'test'), 'stripe'), ConsistentRead: true }))).Item;
  const accountChecks = () => env.standIn.requests.filter((r) => r.method === 'GET' && r.path === '/v1/account').length;

  it('checks the key with one call to Stripe, stores it encrypted and never returns it', async () => {
    const client = await env.api.client();
    const keys = env.standIn.newAccount('test');
    const webhookSecret = 'whsec_Standin0webhook0secret0for0tests';
    const before = accountChecks();
    const reply = await connect(client, { secret_key: keys.secretKey, publishable_key: keys.publishableKey, webhook_secret: webhookSecret });
    expect(reply.status).toBe(200);
    expect(accountChecks() - before).toBe(1);
    expect(reply.body).toEqual({
      provider: 'stripe', status: 'connected', livemode: false, account_id: keys.account.id, secret_key_last4: keys.secretKey.slice(-4),
      publishable_key: keys.publishableKey, webhook_url: `${env.api.url}/v1/payment-providers/stripe/webhooks/${client.workspace}`,
      webhook_secret_configured: true, connected_at: expect.any(String),
    });
    const listed = await client.get('/v1/payment-providers');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ meta: { total: 1, taken: 1, skipped: 0 }, data: [reply.body] });
    for (const text of [JSON.stringify(reply.body), JSON.stringify(listed.body), JSON.stringify(await stored(client))]) {
      expect(text).not.toContain(keys.secretKey);
      expect(text).not.toContain(webhookSecret);
    }
    expect(await stored(client)).toMatchObject({ secret_key: { scheme: 'local', ciphertext: expect.any(String) }, webhook_secret: { scheme: 'local' } });

    // Another workspace sees none of it.
    expect((await (await env.api.client()).get('/v1/payment-providers')).body).toEqual({ meta: { total: 0, taken: 0, skipped: 0 }, data: [] });
  });

  it('replaces the keys when connected again, keeping connected_at for the same account', async () => {
    const client = await env.api.client();
    const keys = env.standIn.newAccount('test');
    const first = await connect(client, { secret_key: keys.secretKey, publishable_key: keys.publishableKey });
    const newPublishableKey = env.standIn.newAccount('test').publishableKey;
    const again = await connect(client, { secret_key: keys.secretKey, publishable_key: newPublishableKey });
    expect(again.body).toMatchObject({ publishable_key: newPublishableKey, connected_at: first.body.connected_at, webhook_secret_configured: false });
    const other = env.standIn.newAccount('test');
    const moved = await connect(client, { secret_key: other.secretKey, publishable_key: other.publishableKey });
    expect(moved.body.account_id).toBe(other.account.id);
  });

  it('refuses a key Stripe refuses (422 provider_key_invalid) and changes nothing', async () => {
    const client = await env.api.client();
    const keys = env.standIn.newAccount('test');
    await connect(client, { secret_key: keys.secretKey, publishable_key: keys.publishableKey });
    const before = await stored(client);
    const reply = await connect(client, { secret_key: 'sk_test_0000000000revokedKey0000', publishable_key: keys.publishableKey });
    expect([reply.status, reply.body.code]).toEqual([422, 'provider_key_invalid']);
    expect(reply.body.message).not.toContain('revokedKey');
    expect(await stored(client)).toEqual(before);

    const fresh = await env.api.client();
    expect((await connect(fresh, { secret_key: 'sk_test_0000000000revokedKey0000', publishable_key: keys.publishableKey })).status).toBe(422);
    expect(await stored(fresh)).toBeUndefined();
  });

  it("requires keys of the workspace's mode: test keys for sk_test_ workspaces, live keys for sk_live_ ones", async () => {
    const client = await env.api.client();
    const live = env.standIn.newAccount('live');
    const test = env.standIn.newAccount('test');
    const before = accountChecks();
    const mismatch = await connect(client, { secret_key: live.secretKey, publishable_key: live.publishableKey });
    expect([mismatch.status, mismatch.body.code]).toEqual([422, 'provider_livemode_mismatch']);
    const mixed = await connect(client, { secret_key: test.secretKey, publishable_key: live.publishableKey });
    expect([mixed.status, mixed.body.code]).toEqual([422, 'provider_key_mode_mismatch']);
    expect(accountChecks()).toBe(before);
    expect(await stored(client)).toBeUndefined();

    process.env.API_KEY_ENVIRONMENT = 'live';
    try {
      const testInLive = await connect(client, { secret_key: test.secretKey, publishable_key: test.publishableKey });
      expect([testInLive.status, testInLive.body.code]).toEqual([422, 'provider_livemode_mismatch']);
      const liveInLive = await connect(client, { secret_key: live.secretKey, publishable_key: live.publishableKey });
      expect([liveInLive.status, liveInLive.body.livemode]).toEqual([200, true]);
    } finally {
      process.env.API_KEY_ENVIRONMENT = 'test';
    }
  });

  it('refuses malformed keys (400) and credentials without the admin scope (403)', async () => {
    const client = await env.api.client();
    const keys = env.standIn.newAccount('test');
    for (const body of [
      { secret_key: keys.publishableKey, publishable_key: keys.publishableKey },
      { secret_key: keys.secretKey, publishable_key: keys.secretKey },
      { secret_key: keys.secretKey },
      { secret_key: keys.secretKey, publishable_key: keys.publishableKey, webhook_secret: 'not-a-secret' },
      { secret_key: keys.secretKey, publishable_key: keys.publishableKey, account: 'acct_1' },
    ]) {
      const reply = await connect(client, body);
      expect([reply.status, reply.body.code]).toEqual([400, 'invalid_request']);
    }
    const writer = await env.api.client({ workspace: client.workspace, scope: 'read write' });
    expect((await connect(writer, { secret_key: keys.secretKey, publishable_key: keys.publishableKey })).status).toBe(403);
    expect((await writer.get('/v1/payment-providers')).status).toBe(403);
    expect((await writer.delete('/v1/payment-providers/stripe')).status).toBe(403);
    expect(await stored(client)).toBeUndefined();
  });

  it('disconnects: the keys are forgotten, a second disconnect is a 404', async () => {
    const client = await env.api.client();
    const keys = env.standIn.newAccount('test');
    const connected = await connect(client, { secret_key: keys.secretKey, publishable_key: keys.publishableKey });
    const reply = await client.delete('/v1/payment-providers/stripe');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ...connected.body, status: 'disconnected' });
    expect(await stored(client)).toBeUndefined();
    expect((await client.get('/v1/payment-providers')).body.data).toEqual([]);
    const again = await client.delete('/v1/payment-providers/stripe');
    expect([again.status, again.body.code]).toEqual([404, 'not_found']);
  });
});
