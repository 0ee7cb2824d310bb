import type Stripe from 'stripe';
import { RuleViolation, ServiceUnavailable } from '../../../errors';

/** The SDK's error classes, by the name each carries in `type`. */
type StripeErrorName =
  | 'StripeCardError' | 'StripeInvalidRequestError' | 'StripeIdempotencyError' | 'StripeAPIError' | 'StripeAuthenticationError'
  | 'StripePermissionError' | 'StripeRateLimitError' | 'StripeConnectionError' | 'StripeSignatureVerificationError';

/**
 * Whether `error` is one of the SDK's errors (of one of `names`, when given). Checked by the `type` each class sets,
 * not by `instanceof`: that would need the SDK's classes at import, and the SDK is loaded only on the first call to
 * Stripe (client.ts). Names match exactly: an idempotency error is not an invalid-request one, as its class is not.
 */
export function isStripeError(error: unknown, ...names: StripeErrorName[]): error is Stripe.errors.StripeError {
  const type = error instanceof Error && 'raw' in error ? (error as { type?: unknown }).type : undefined;
  return typeof type === 'string' && (names.length === 0 || names.includes(type as StripeErrorName));
}

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
    if (isStripeError(error, 'StripeAuthenticationError', 'StripePermissionError')) {
      throw providerKeyInvalid(`Stripe refused the secret key: ${error.message}`);
    }
    if (
      isStripeError(error, 'StripeConnectionError', 'StripeAPIError', 'StripeRateLimitError') ||
      (isStripeError(error) && (error.statusCode ?? 0) >= 500)
    ) {
      throw new ServiceUnavailable(`Stripe could not be reached (${error.message}); retry the request.`);
    }
    throw error;
  }
}
