import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { priceBookExists } from '../catalog/price-books';
import { methodSummary, paymentMethodKey, type PaymentMethodItem } from '../payment-methods/payment-method';
import { RuleViolation } from '../../errors';
import { findEntityItem } from '../invoicing-entities/read';
import { NotFound } from '../../errors';
import type { CustomerItem } from './customer';
import type { CustomerInput } from './input';
import { invoicingEntityExists, organisationExists, paymentMethodOfCustomer, type ReferenceCheck } from './references';

/**
 * An archived customer is billed no more: no new invoice, quote or subscription (the periods of a subscription it
 * already has still are). 422 `customer_archived`, saying how to bill it again.
 */
export function assertNotArchived(customer: Pick<CustomerItem, 'id' | 'status'>): void {
  if (customer.status !== 'archived') return;
  throw new RuleViolation('customer_archived', `Customer '${customer.id}' is archived: unarchive it (PUT /v1/customers/${customer.id}/unarchive) before billing it.`);
}

/**
 * An entity with `forced_customer_type` imposes that type on its customers: adopted when the request does not
 * say, a 422 when it says otherwise. Runs when the entity or the type changes.
 */
export async function entityRules(ctx: Ctx, current: CustomerItem, next: CustomerItem, input: CustomerInput): Promise<void> {
  const entityChanged = next.invoicing_entity_id !== current.invoicing_entity_id;
  if (!entityChanged && input.type === undefined) return;
  const entity = await findEntityItem(ctx, next.invoicing_entity_id, true).catch((error) => {
    throw error instanceof NotFound ? invoicingEntityExists(ctx, next.invoicing_entity_id).error() : error;
  });
  if (entity.deleted_at) throw invoicingEntityExists(ctx, entity.id).error();
  const forced = entity.forced_customer_type;
  if (!forced || next.type === forced) return;
  if (input.type !== undefined) {
    throw new RuleViolation('customer_type_forced', `Invoicing entity '${entity.id}' only accepts customers of type '${forced}'.`);
  }
  next.type = forced;
}

/**
 * A new default payment method (`payment_method_id`): its summary is copied onto the customer with it, so
 * `current_payment_method` shows every member without another read. The reference check in the write's transaction
 * still guards against one deleted meanwhile.
 */
export async function paymentMethodRules(ctx: Ctx, current: CustomerItem, next: CustomerItem): Promise<void> {
  if (next.current_payment_method_id === current.current_payment_method_id) return;
  if (!next.current_payment_method_id) {
    next.current_payment_method_summary = null;
    return;
  }
  const method = await getItem<PaymentMethodItem>(paymentMethodKey(ctx, next.current_payment_method_id), true);
  if (!method || method.deleted_at || method.customer_id !== next.id) throw paymentMethodOfCustomer(ctx, next.id, next.current_payment_method_id).error();
  next.current_payment_method_summary = methodSummary(method);
}

/** Checks for the references the write introduces, verified in the write's own transaction. */
export function referenceChecks(ctx: Ctx, current: CustomerItem, next: CustomerItem): ReferenceCheck[] {
  const checks: ReferenceCheck[] = [];
  if (next.invoicing_entity_id !== current.invoicing_entity_id) checks.push(invoicingEntityExists(ctx, next.invoicing_entity_id));
  if (next.organisation_id && next.organisation_id !== current.organisation_id) {
    if (next.organisation_id === next.id) throw new RuleViolation('organisation_not_found', 'A customer cannot be its own organisation.');
    checks.push(organisationExists(ctx, next.organisation_id));
  }
  if (next.price_book_id && next.price_book_id !== current.price_book_id) checks.push(priceBookExists(ctx, next.price_book_id));
  if (next.current_payment_method_id && next.current_payment_method_id !== current.current_payment_method_id) {
    checks.push(paymentMethodOfCustomer(ctx, next.id, next.current_payment_method_id));
  }
  return checks;
}
