import type { Ctx } from '../../context';
import { parentListKeys, parentListPartition } from '../../db/keys';
import { SUBSCRIPTION } from './subscription';

/**
 * A subscription made from a plan is listed under it in the keys-only parent index (gsi3, `…#LIST#SUB#plan_id=<id>`,
 * ordered by creation): a migration pages through this list (docs/plans.md) instead of scanning every subscription.
 * The keys stay on the item for good (every write puts the whole item back with them).
 */
export const planMemberKeys = (ctx: Ctx, planId: string, createdAt: string, id: string) => parentListKeys(ctx, SUBSCRIPTION, 'plan_id', planId, createdAt, id);
export const planMembersPartition = (ctx: Ctx, planId: string) => parentListPartition(ctx, SUBSCRIPTION, 'plan_id', planId);
