import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem, retryOnRace } from '../../db/items';
import { transactWrite } from '../../db/transactions';
import { computeEntitlements } from './compute';
import { ENTITLEMENTS_ITEM_TYPE, entitlementsKey, type EntitlementsItem } from './entitlement';
import type { FeatureValue } from './feature';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Recomputes a customer's entitlements item and writes it when something changed, on the condition that nobody wrote
 * it since it was read (a lost race reads and computes again). The item is read BEFORE the state it is computed
 * from: a writer that won in between read newer state, so whichever write lands last is never older than the
 * other's. Running it twice, or for a change already applied, writes nothing: each real change is written (and told
 * by `entitlements.updated`) once. `overrides` (given): the override route's new set, written with the result.
 */
export async function materialiseEntitlements(ctx: Ctx, customerId: string, overrides?: (current: Record<string, FeatureValue>) => Record<string, FeatureValue>): Promise<EntitlementsItem | undefined> {
  return retryOnRace(async () => {
    const current = await getItem<EntitlementsItem>(entitlementsKey(ctx, customerId), true);
    const nextOverrides = overrides ? overrides(current?.overrides ?? {}) : (current?.overrides ?? {});
    const entitlements = await computeEntitlements(ctx, customerId, nextOverrides);
    if (same(entitlements, current?.entitlements ?? []) && same(nextOverrides, current?.overrides ?? {})) return current;
    const next: EntitlementsItem = {
      ...entitlementsKey(ctx, customerId), _type: ENTITLEMENTS_ITEM_TYPE, _version: (current?._version ?? -1) + 1,
      customer_id: customerId, overrides: nextOverrides, entitlements, updated_at: ctx.clock.now().toISOString(),
    };
    const condition = current
      ? { ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': '_version' }, ExpressionAttributeValues: { ':v': current._version } }
      : { ConditionExpression: 'attribute_not_exists(pk)' };
    await transactWrite([{ Put: { TableName: tableName(), Item: next, ...condition } }]);
    return next;
  });
}
