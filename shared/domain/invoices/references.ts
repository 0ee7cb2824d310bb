import type { Ctx } from '../../context';
import { RuleViolation } from '../../errors';
import { paymentMethodOfCustomer, type ReferenceCheck } from '../customers/references';

/**
 * `payment_method_id` and `bank_account_id` given on an invoice must name something real. A payment method: one
 * saved for the invoice's customer (the check runs in the invoice's own transaction, so one deleted meanwhile is
 * refused too). A bank account: the API keeps no bank accounts to refer to (a customer's `bank_account` has no id),
 * so any id is unknown and only null is accepted.
 */
export function paymentReferenceChecks(ctx: Ctx, customerId: string, members: { payment_method_id?: string | null; bank_account_id?: string | null }): ReferenceCheck[] {
  if (members.bank_account_id) {
    throw new RuleViolation(
      'bank_account_not_found',
      `No bank account '${members.bank_account_id}': this API keeps no bank accounts to refer to; leave bank_account_id null (a transfer shows the customer's bank_account, else the workspace's).`,
    );
  }
  return members.payment_method_id ? [paymentMethodOfCustomer(ctx, customerId, members.payment_method_id)] : [];
}
