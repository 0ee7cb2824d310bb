import { assertRetrySchedule } from '../collection/settings';
import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { putIfUnchanged, retryOnRace, versionCondition } from '../../db/items';
import { transactWrite } from '../../db/transactions';
import { RuleViolation } from '../../errors';
import { assertPortalSettings } from './portal-settings-check';
import { becomeDefaultItems, readDefaultEntityId } from './default-entity';
import { defaultRequired, entityDeleted } from './errors';
import { applyEntityInput, toInvoicingEntity, type EntityInput, type EntityItem, type InvoicingEntity } from './invoicing-entity';
import { logoFileFor } from './logo';
import { findEntityItem } from './read';

/**
 * A new or changed `logo_url` is fetched, checked and stored before anything is written (./logo.ts); null clears the
 * copy; the same URL again keeps the copy (the image is fetched once).
 */
async function withLogoFile(ctx: Ctx, id: string, input: EntityInput): Promise<EntityInput> {
  if (input.logo_url === undefined) return input;
  if (input.logo_url === null) return { ...input, logo_file: null };
  const current = await findEntityItem(ctx, id);
  if (current.deleted_at) throw entityDeleted(id);
  if (current.logo_url === input.logo_url && current.logo_file) return input;
  return { ...input, logo_file: await logoFileFor(ctx, id, input.logo_url) };
}

const COUNTERS = ['next_invoice_number', 'next_credit_note_number', 'next_document_number'] as const;

/** Partial update. Counters may move forward only (a lower number would repeat issued numbers). */
export async function updateInvoicingEntity(ctx: Ctx, id: string, given: EntityInput): Promise<InvoicingEntity> {
  assertRetrySchedule(given.dunning_retry_schedule);
  await assertPortalSettings(ctx, given.portal_settings);
  const input = await withLogoFile(ctx, id, given);
  return retryOnRace(async () => {
    const current = await findEntityItem(ctx, id, true);
    if (current.deleted_at) throw entityDeleted(id);
    for (const counter of COUNTERS) {
      const next = input[counter];
      if (next !== undefined && next < current[counter]) {
        throw new RuleViolation('invalid_number_sequence', `${counter} cannot go back from ${current[counter]} to ${next}: those numbers may be issued already.`);
      }
    }
    if (input.is_default === false && current.is_default) throw defaultRequired();
    const now = ctx.clock.now().toISOString();
    const updated = applyEntityInput(current, input, now);
    if (input.is_default !== true || current.is_default) {
      return toInvoicingEntity(await putIfUnchanged(updated, current._version));
    }
    const next: EntityItem = { ...updated, _version: current._version + 1 };
    await transactWrite([
      { Put: { TableName: tableName(), Item: next, ...versionCondition(current._version) } },
      ...becomeDefaultItems(ctx, id, await readDefaultEntityId(ctx), now),
    ]);
    return toInvoicingEntity(next);
  });
}
