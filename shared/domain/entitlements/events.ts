import type { EventDraft } from '../events/catalog';
import { changedPublicly } from '../events/changed';
import { toEntitlements, type EntitlementsItem } from './entitlement';

/** `entitlements.updated` when a customer's entitlements visibly change (not for an override that changes nothing). */
export function entitlementsEvents(before: EntitlementsItem | undefined, after: EntitlementsItem | undefined): EventDraft[] {
  if (!after) return [];
  const data = toEntitlements(after.customer_id, after);
  const was = toEntitlements(after.customer_id, before);
  return changedPublicly({ ...was, updated_at: '' }, { ...data, updated_at: '' }) ? [{ type: 'entitlements.updated', data }] : [];
}
