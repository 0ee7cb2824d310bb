import type { EventDraft } from '../events/catalog';
import { changedPublicly } from '../events/changed';
import { toInvoicingEntity, type EntityItem } from './invoicing-entity';

/** Numbering moves the counters on every issued document: that is told by the documents' events, not as an entity update. */
const settings = (item: EntityItem) => ({ ...toInvoicingEntity(item), next_invoice_number: 0, next_credit_note_number: 0, next_document_number: 0, updated_at: '' });

/** Entity changes → `invoicing_entity.created` / `.updated` (the catalog has no delete: a soft delete is an update). */
export function invoicingEntityEvents(before: EntityItem | undefined, after: EntityItem | undefined): EventDraft[] {
  if (!after) return [];
  const data = toInvoicingEntity(after);
  if (!before) return [{ type: 'invoicing_entity.created', data }];
  return changedPublicly(settings(before), settings(after)) ? [{ type: 'invoicing_entity.updated', data }] : [];
}
