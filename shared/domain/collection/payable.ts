import type { Ctx } from '../../context';
import { InvalidRequest } from '../../errors';
import type { CustomerItem } from '../customers/customer';
import type { InvoiceItem } from '../invoices/invoice';
import type { EntityItem } from '../invoicing-entities/invoicing-entity';
import { collectionDueKeys, firstAttempt } from './dunning';
import { collectionSettingsOf, type CollectionMethod } from './settings';

/**
 * Whose choice decides (docs/collection.md): the invoice's own, else the subscription's, else the customer's, else
 * `automatic` when the customer has a default payment method and `manual` when not (null means "inherit" at each
 * level). `automatic` without a payment method is kept, as for customers and subscriptions: its attempts fail with
 * `payment_method_missing` until one is saved.
 */
export function resolveCollectionMethod(
  customer: Pick<CustomerItem, 'collection_method' | 'current_payment_method_id'>, subscription?: CollectionMethod | null, invoice?: CollectionMethod | null,
): CollectionMethod {
  return invoice ?? subscription ?? customer.collection_method ?? (customer.current_payment_method_id ? 'automatic' : 'manual');
}

/** 400 when a collection method is given to a document: only invoices are ever collected. */
export function assertCollectable(type: InvoiceItem['type'], method: CollectionMethod | null | undefined): void {
  if (type === 'invoice' || method === undefined || method === null) return;
  throw new InvalidRequest(`A ${type} is never collected: collection_method is for invoices only.`, [{ path: 'body.collection_method', message: `is not allowed on a ${type}` }]);
}

/**
 * The invoice as it becomes payable (to_pay), in the same write: its collection method recorded and, when
 * automatic and something is due, its first collection attempt due now in the scheduling index (which replaces a
 * grace period's item there). Credit notes and documents are never collected.
 */
export function withCollection(
  ctx: Ctx, invoice: InvoiceItem, customer: Pick<CustomerItem, 'collection_method' | 'current_payment_method_id'>, entity: EntityItem, subscription?: CollectionMethod | null,
): InvoiceItem {
  if (invoice.type !== 'invoice' || invoice.status !== 'to_pay') return invoice;
  // The draft's own choice (POST/PATCH /v1/invoices) is on the invoice until now: it comes first.
  const method = resolveCollectionMethod(customer, subscription, invoice.collection_method);
  if (method !== 'automatic' || invoice.amount_due <= 0) return { ...invoice, collection_method: method, dunning: null };
  const settings = collectionSettingsOf(entity);
  const now = ctx.clock.now().toISOString();
  return {
    ...invoice, collection_method: method, dunning: firstAttempt(now, settings.dunning_retry_schedule, settings.dunning_final_action),
    ...collectionDueKeys(ctx, now, invoice.id),
  };
}
