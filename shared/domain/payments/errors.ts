import { RuleViolation, ServiceUnavailable } from '../../errors';

/** A token the provider cannot turn into a payment method (422). */
export const paymentMethodInvalid = (message: string) => new RuleViolation('payment_method_invalid', message);

/**
 * The provider may have charged, or not: the call went out and no answer came back (network, provider 5xx, after
 * the SDK's retry with the same idempotency key). Retryable (503), but only as the same attempt: its idempotency key
 * makes the provider answer with what it did, so the charge is never made twice.
 */
export class ChargeOutcomeUnknown extends ServiceUnavailable {
  constructor(message: string) {
    super(message);
  }
}
