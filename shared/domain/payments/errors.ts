import { RuleViolation } from '../../errors';

/** A token the provider cannot turn into a payment method (422). */
export const paymentMethodInvalid = (message: string) => new RuleViolation('payment_method_invalid', message);
