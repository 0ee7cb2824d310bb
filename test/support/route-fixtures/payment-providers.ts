import type { AreaFixtures } from './types';

export const paymentProviderFixtures: AreaFixtures = {
  resources: {
    // Public: Stripe's signature is the credential, so any workspace's endpoint answers alike (a 400 without one).
    '/v1/payment-providers/stripe/webhooks/{workspace_id}': async (client) => ({ params: { workspace_id: client.workspace }, read: '/v1/payment-providers' }),
  },
  bodies: {
    // Well-formed test-mode keys: the matrices' deployment is live (no API_KEY_ENVIRONMENT), so the connect stops at
    // the mode check (422 provider_livemode_mismatch) and never calls Stripe.
    connectStripe: { secret_key: 'sk_test_MatrixFixture0000000000', publishable_key: 'pk_test_MatrixFixture0000000000' },
  },
};
