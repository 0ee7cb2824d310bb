import type { Ctx } from '../../context';
import { parentListKeys, parentListPartition } from '../../db/keys';
import { queryItems } from '../../db/query';
import { CUSTOMER, type CustomerItem } from './customer';

const FIELD = 'external_id';

/**
 * A customer with an `external_id` sits in gsi3 under it, so usage events can name the customer by the caller's own
 * id in one Query. Set on every write of the customer item (create, update), removed when the id is cleared.
 */
export function withExternalIdIndex(ctx: Ctx, item: CustomerItem): CustomerItem {
  const { gsi3pk: _pk, gsi3sk: _sk, ...rest } = item as CustomerItem & { gsi3pk?: string; gsi3sk?: string };
  if (item.external_id === null) return rest as CustomerItem;
  return { ...rest, ...parentListKeys(ctx, CUSTOMER, FIELD, item.external_id, item.created_at, item.id) } as CustomerItem;
}

/** The ids of the customers (deleted ones included) whose external id is `externalId`, oldest first. */
export async function customerIdsByExternalId(ctx: Ctx, externalId: string): Promise<string[]> {
  const { items } = await queryItems<{ gsi3sk: string }>({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :p',
    ExpressionAttributeValues: { ':p': parentListPartition(ctx, CUSTOMER, FIELD, externalId) },
    Limit: 10,
  }, (found) => found.length >= 10);
  return items.map((entry) => entry.gsi3sk.slice(entry.gsi3sk.indexOf('#') + 1));
}
