import { makeCtx, type Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { settingKey } from '../../db/keys';
import type { TransactItem } from '../../db/transactions';

/**
 * A workspace's revocation epoch: a counter that every revocation of one of its keys raises, in the revocation's own
 * transaction. The authorizer's cache (shared/identity/resolution-cache.ts) tags each key resolution with the epoch
 * read before it, and reuses it only while the epoch it knows (read at most a few seconds ago) is still that one: a
 * revocation reaches every instance within seconds, for one small read per workspace and instance every few seconds
 * instead of one per request.
 */
const epochKey = (ctx: Ctx) => settingKey(ctx, 'API_KEY_REVOCATIONS');

/** The workspace's epoch now (strongly consistent: a revocation committed before the read is counted); 0 before any. */
export async function revocationEpoch(workspaceId: string): Promise<number> {
  const item = await getItem<{ epoch?: number }>(epochKey(makeCtx(workspaceId, 'authorizer')), true);
  return item?.epoch ?? 0;
}

/** The transaction entry that raises the epoch: part of every revocation. */
export const raiseRevocationEpoch = (ctx: Ctx): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: epochKey(ctx),
    UpdateExpression: 'ADD epoch :one SET #type = :type',
    ExpressionAttributeNames: { '#type': '_type' },
    ExpressionAttributeValues: { ':one': 1, ':type': 'setting' },
  },
});
