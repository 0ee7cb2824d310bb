/**
 * A charge through Stripe beside the same charge through the sandbox (issue 29): POST /v1/invoices/{id}/charge of a
 * 120.00 EUR invoice, in a workspace connected to the Stripe stand-in (test/support/stripe/, the official SDK through
 * STRIPE_API_URL) and in one using the sandbox, interleaved; and the stand-in's own round trip for one PaymentIntent
 * create with the charge's parameters, sent by the SDK directly. The service adds no waiting of its own when the
 * Stripe charge stays within the sandbox charge plus that round trip. Import only once DYNAMODB_ENDPOINT is set.
 */
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { dynamoCallCount } from '../../shared/db/client';
import { stripeApiLocation } from '../../shared/domain/payments/stripe/client';
import { signToken, type LocalKeys } from '../../lib/local/jwt';
import { startStripeStandIn } from '../support/stripe/server';
import { apiClient, type ApiCall } from './http';
import { measureRotating, type VariantResult } from './latency';

export interface StripeChargeResults {
  sandbox: VariantResult;
  stripe: VariantResult;
  /** The SDK's PaymentIntent create (confirm, off session, the fee expanded) against the stand-in alone. */
  standIn: VariantResult;
}

interface Workspace {
  call: ApiCall;
  customerId: string;
}

async function workspace(baseUrl: string, keys: LocalKeys): Promise<Workspace> {
  const token = await signToken(keys, { workspace: `ws_bench_${randomUUID().slice(0, 8)}`, scope: 'read write admin' });
  const call = apiClient(baseUrl, token);
  await call('POST', '/v1/invoicing-entities', 201, { name: 'Bench SAS', country: 'FR', currency: 'EUR' });
  const customer = await call<{ id: string }>('POST', '/v1/customers', 201, { name: 'Charge bench', currency: 'EUR', billing_address: { country: 'FR' } });
  return { call, customerId: customer.id };
}

/** `count` invoices of 100.00 + 20 % VAT to charge, made before the timing starts. */
async function invoicesOf(ws: Workspace, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await ws.call<{ id: string }>('POST', '/v1/invoices', 201, { customer_id: ws.customerId, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: 10_000 }] })).id);
  }
  return ids;
}

export async function measureStripeCharges(options: { baseUrl: string; keys: LocalKeys; counts: { warmup: number; measured: number } }): Promise<StripeChargeResults> {
  const { baseUrl, keys, counts } = options;
  const standIn = await startStripeStandIn();
  const previous = { url: process.env.STRIPE_API_URL, environment: process.env.API_KEY_ENVIRONMENT };
  process.env.STRIPE_API_URL = standIn.url;
  process.env.API_KEY_ENVIRONMENT = 'test'; // a test-mode deployment takes Stripe's test keys
  try {
    const rounds = counts.warmup + counts.measured;
    const sandbox = await workspace(baseUrl, keys);
    await sandbox.call('POST', `/v1/customers/${sandbox.customerId}/payment-methods`, 201, { token: 'tok_visa' });
    const stripe = await workspace(baseUrl, keys);
    const account = standIn.newAccount('test');
    await stripe.call('PUT', '/v1/payment-providers/stripe', 200, { secret_key: account.secretKey, publishable_key: account.publishableKey });
    await stripe.call('POST', `/v1/customers/${stripe.customerId}/payment-methods`, 201, { provider: 'stripe', token: 'pm_card_visa' });
    const [sandboxInvoices, stripeInvoices] = [await invoicesOf(sandbox, rounds), await invoicesOf(stripe, rounds)];

    // The stand-in alone: the SDK as the service builds it, the same PaymentIntent as a charge asks for.
    const sdk = new Stripe(account.secretKey, { ...stripeApiLocation(standIn.url), maxNetworkRetries: 1 });
    const customer = [...account.account.customers.values()][0]!.id;
    const method = [...account.account.paymentMethods.values()][0]!.id;
    const measured = await measureRotating(
      [
        { name: 'sandbox', run: (i) => sandbox.call('POST', `/v1/invoices/${sandboxInvoices[i]}/charge`, 200, {}) },
        { name: 'stripe', run: (i) => stripe.call('POST', `/v1/invoices/${stripeInvoices[i]}/charge`, 200, {}) },
        {
          name: 'standIn',
          run: (i) => sdk.paymentIntents.create(
            {
              amount: 12_000, currency: 'eur', customer, payment_method: method, confirm: true, off_session: true,
              metadata: { workspace_id: 'ws_bench', invoice_id: `inv_bench_${i}`, attempt_id: `tra_bench_${i}` }, expand: ['latest_charge.balance_transaction'],
            },
            { idempotencyKey: `charge:bench:${i}` },
          ),
        },
      ],
      counts,
      dynamoCallCount,
    );
    const paid = account.account.paymentIntents.size;
    if (paid !== 2 * rounds) throw new Error(`expected ${2 * rounds} PaymentIntents at the stand-in, found ${paid}`);
    return { sandbox: measured.get('sandbox')!, stripe: measured.get('stripe')!, standIn: measured.get('standIn')! };
  } finally {
    await standIn.close();
    for (const [name, value] of [['STRIPE_API_URL', previous.url], ['API_KEY_ENVIRONMENT', previous.environment]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
