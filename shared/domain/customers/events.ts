import type { EventDraft } from '../events/catalog';
import { changedPublicly } from '../events/changed';
import { toCustomer, type CustomerItem } from './customer';

/**
 * Customer changes → events: a soft delete is `deleted`, a status move `archived`/`unarchived` (with Hyperline's `recovered`), `billing_email_status`
 * leaving `ok` (a bounce or complaint, shared/email/feedback.ts) `email_bounced`, anything else visible `updated`.
 */
export function customerEvents(before: CustomerItem | undefined, after: CustomerItem | undefined): EventDraft[] {
  if (!after) return [];
  const data = toCustomer(after);
  if (!before) return [{ type: 'customer.created', data }];
  if (!before.deleted_at && after.deleted_at) return [{ type: 'customer.deleted', data }];
  if (before.status !== after.status) {
    return after.status === 'archived' ? [{ type: 'customer.archived', data }] : [{ type: 'customer.unarchived', data }, { type: 'customer.recovered', data }];
  }
  if (data.billing_email_status !== 'ok' && data.billing_email_status !== toCustomer(before).billing_email_status) return [{ type: 'customer.email_bounced', data }];
  return changedPublicly(toCustomer(before), data) ? [{ type: 'customer.updated', data }] : [];
}
