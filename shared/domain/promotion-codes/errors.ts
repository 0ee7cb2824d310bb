import { Conflict, NotFound, RuleViolation } from '../../errors';

export const promotionCodeNotFound = (id: string) => new NotFound('promotion code', id);

export const promotionCodeDeleted = (id: string) =>
  new Conflict(`Promotion code '${id}' is deleted and can no longer be changed.`, 'resource_deleted');

export const codeTaken = (code: string) =>
  new Conflict(`A promotion code '${code}' already exists in this workspace (codes ignore case).`, 'promotion_code_exists');

export const couponUnusable = (id: string, reason: 'missing' | 'deleted' | 'expired') =>
  reason === 'missing'
    ? new RuleViolation('coupon_not_found', `No coupon with id '${id}'.`)
    : new RuleViolation(`coupon_${reason}`, `Coupon '${id}' is ${reason}: it cannot be given new promotion codes.`);

export const customerNotFound = (id: string) => new RuleViolation('customer_not_found', `No customer with id '${id}' (or it is deleted).`);

/** Why a code cannot be applied: one 422 code for every rule, the message says which rule failed. */
export const notApplicable = (message: string) => new RuleViolation('promotion_code_not_applicable', message);
