import type { Ctx } from '../../context';
import { retryOnRace } from '../../db/items';
import { asSoftDeleted, softDelete } from '../../db/soft-delete';
import { defaultRequired } from './errors';
import { ENTITY, entityItemKey, toInvoicingEntity, type InvoicingEntity } from './invoicing-entity';
import { findEntityItem } from './read';

/** Soft delete (see softDelete). Deleting twice returns the deleted entity. The default entity cannot be deleted. */
export async function deleteInvoicingEntity(ctx: Ctx, id: string): Promise<InvoicingEntity> {
  return retryOnRace(async () => {
    const current = await findEntityItem(ctx, id, true);
    if (current.deleted_at) return toInvoicingEntity(current);
    if (current.is_default) throw defaultRequired();
    const now = ctx.clock.now().toISOString();
    await softDelete(ctx, ENTITY, entityItemKey(ctx, id), current._version, now);
    return toInvoicingEntity(asSoftDeleted(current, now));
  });
}
