import { startTestApi, withEntity, type Client, type TestApi } from '../api';
import { startStripeStandIn, type StandInKeys, type StripeStandIn } from './server';

export interface StripeTestApi {
  api: TestApi;
  standIn: StripeStandIn;
  /** A fresh workspace (with an invoicing entity) connected to a new stand-in account of the workspace's mode. */
  connectedClient(options?: { webhookSecret?: string }): Promise<{ client: Client; keys: StandInKeys }>;
  close(): Promise<void>;
}

/**
 * The test API with the Stripe stand-in behind `STRIPE_API_URL`, in a test-mode deployment (`API_KEY_ENVIRONMENT`
 * `test`, as under `npm start`): Stripe test keys are the ones a workspace may connect.
 */
export async function startStripeTestApi(options: Parameters<typeof startTestApi>[0] = {}): Promise<StripeTestApi> {
  const standIn = await startStripeStandIn();
  const previous = { url: process.env.STRIPE_API_URL, environment: process.env.API_KEY_ENVIRONMENT };
  process.env.STRIPE_API_URL = standIn.url;
  process.env.API_KEY_ENVIRONMENT = 'test';
  const api = await startTestApi(options);
  const restore = (name: string, value: string | undefined) => (value === undefined ? delete process.env[name] : (process.env[name] = value));
  return {
    api,
    standIn,
    async connectedClient({ webhookSecret } = {}) {
      const client = await api.client();
      await withEntity(client);
      const keys = standIn.newAccount('test');
      const reply = await client.put('/v1/payment-providers/stripe', { secret_key: keys.secretKey, publishable_key: keys.publishableKey, ...(webhookSecret && { webhook_secret: webhookSecret }) });
      if (reply.status !== 200) throw new Error(`connecting Stripe failed: ${JSON.stringify(reply.body)}`);
      return { client, keys };
    },
    async close() {
      await api.close();
      await standIn.close();
      restore('STRIPE_API_URL', previous.url);
      restore('API_KEY_ENVIRONMENT', previous.environment);
    },
  };
}
