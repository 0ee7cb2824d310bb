import Stripe from 'stripe';
import { RuleViolation, ServiceUnavailable } from '../../../errors';

/** The stored key no longer works at Stripe (rolled or revoked): the workspace must connect again. */
export const providerKeyInvalid = (message: string) => new RuleViolation('provider_key_invalid', message);

/**
 * Runs one call to Stripe and turns what is not the caller's to handle into the API's errors: a key Stripe refuses
 * is a 422 `provider_key_invalid`; Stripe unreachable, rate limiting or a Stripe 5xx (after the SDK's own retry with
 * the same idempotency key) is a retryable 503. Card errors and invalid requests reach the caller as they are.
 */
export async function atStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError) {
      throw providerKeyInvalid(`Stripe refused the secret key: ${error.message}`);
    }
    if (
      error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError ||
      error instanceof Stripe.errors.StripeRateLimitError || (error instanceof Stripe.errors.StripeError && (error.statusCode ?? 0) >= 500)
    ) {
      throw new ServiceUnavailable(`Stripe could not be reached (${error.message}); retry the request.`);
    }
    throw error;
  }
}
