import { assertRetrySchedule } from '../collection/settings';
import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { retryOnRace } from '../../db/items';
import { counterUpdate } from '../../db/pagination';
import { transactWrite } from '../../db/transactions';
import { newId } from '../../ids';
import { assertPortalSettings } from './portal-settings-check';
import { logoFileFor } from './logo';
import { becomeDefaultItems, readDefaultEntityId } from './default-entity';
import { ENTITY, newEntityItem, toInvoicingEntity, type EntityInput, type EntityItem, type InvoicingEntity } from './invoicing-entity';

export type CreateEntityInput = EntityInput & Pick<EntityItem, 'name' | 'country' | 'currency'>;

/** Creates an entity; it becomes the default when asked to, or when the workspace has no default yet. */
export async function createInvoicingEntity(ctx: Ctx, input: CreateEntityInput): Promise<InvoicingEntity> {
  assertRetrySchedule(input.dunning_retry_schedule);
  await assertPortalSettings(ctx, input.portal_settings);
  const id = newId('ive');
  const { is_default: wantsDefault, ...given } = input;
  // Fetched and stored before anything is written: a logo that cannot be used refuses the whole request.
  const members = given.logo_url ? { ...given, logo_file: await logoFileFor(ctx, id, given.logo_url) } : given;
  return retryOnRace(async () => {
    const now = ctx.clock.now().toISOString();
    const currentDefault = await readDefaultEntityId(ctx);
    const isDefault = wantsDefault === true || !currentDefault;
    const item = { ...newEntityItem(ctx, id, members, now), is_default: isDefault };
    await transactWrite([
      { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      counterUpdate(ctx, ENTITY, 1),
      ...(isDefault ? becomeDefaultItems(ctx, id, currentDefault, now) : []),
    ]);
    return toInvoicingEntity(item);
  });
}
