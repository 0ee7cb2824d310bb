import type { AreaFixtures } from './types';

export const paymentProviderFixtures: AreaFixtures = {
  resources: {},
  bodies: {
    // Well-formed test-mode keys: the matrices' deployment is live (no API_KEY_ENVIRONMENT), so the connect stops at
    // the mode check (422 provider_livemode_mismatch) and never calls Stripe.
    connectStripe: { secret_key: 'sk_test_MatrixFixture0000000000', publishable_key: 'pk_test_MatrixFixture0000000000' },
  },
};
