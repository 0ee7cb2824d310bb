import { InvalidRequest, NotFound, RuleViolation } from '../../errors';

/** The customer and the product exist, but nothing was ever topped up. */
export const creditBalanceNotFound = (productId: string) => new NotFound('credit balance of the customer for the product', productId);

export const notACreditProduct = (productId: string, type: string) =>
  new RuleViolation('not_a_credit_product', `Product '${productId}' is a ${type} product: only credit products hold credit balances.`);

/** decisions.md: a usage of more than the balance is refused. `available` excludes credits already past their expiry. */
export function insufficientCredits(wanted: number, available: number, expired: number): RuleViolation {
  const pending = expired > 0 ? ` (${expired} more are past their expiry and no longer usable)` : '';
  return new RuleViolation('insufficient_credits', `The usage of ${wanted} credits exceeds the ${available} credits available${pending}.`);
}

export const priceNotFound = (productId: string, priceId: string) =>
  new RuleViolation('price_not_found', `Product '${productId}' has no bundle price '${priceId}'.`);

export const priceArchived = (priceId: string, configurationId: string) =>
  new RuleViolation('price_archived', `Price '${priceId}' belongs to the archived price configuration '${configurationId}'.`);

export const expiryInPast = (expiresAt: string) =>
  new InvalidRequest(`Invalid body: body.expires_at must be in the future (got ${expiresAt}).`, [{ path: 'body.expires_at', message: 'must be in the future' }]);

export const tooManyLots = (lots: number, max: number) =>
  new RuleViolation('too_many_credit_lots', `This usage would draw from ${lots} top-ups at once (at most ${max}); split it into smaller usages.`);

export const balanceTooLarge = () => new RuleViolation('credit_balance_too_large', 'This top-up would take the balance past 2^53 − 1 credits.');
