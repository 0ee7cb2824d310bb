import type { EventDraft } from '../events/catalog';
import { changedPublicly } from '../events/changed';
import { toInvoicingEntity, type EntityItem } from './invoicing-entity';

/** Entity changes → `invoicing_entity.created` / `.updated` (the catalog has no delete: a soft delete is an update). */
export function invoicingEntityEvents(before: EntityItem | undefined, after: EntityItem | undefined): EventDraft[] {
  if (!after) return [];
  const data = toInvoicingEntity(after);
  if (!before) return [{ type: 'invoicing_entity.created', data }];
  return changedPublicly(toInvoicingEntity(before), data) ? [{ type: 'invoicing_entity.updated', data }] : [];
}
