import type { Ctx } from '../../context';
import { batchGet } from '../../db/pagination';
import { customerItemKey, type CustomerItem } from '../customers/customer';
import { customerIdsByExternalId } from '../customers/external-id';

/** Why an event's `customer_id` names no customer that can be billed. */
export interface RefProblem {
  code: 'customer_not_found' | 'customer_ambiguous';
  message: string;
}

export type Resolved = { customerId: string } | { problem: RefProblem };

const notFound = (ref: string): Resolved => ({
  problem: { code: 'customer_not_found', message: `No customer with id or external_id '${ref}' (or it is deleted).` },
});

/**
 * Resolves the distinct customer references of a batch at once: `cus_…` ids with BatchGetItem (100 a call), external
 * ids with one gsi3 Query each. A deleted customer resolves to nothing; an external id shared by several live
 * customers is ambiguous (name the customer by its `cus_` id then).
 */
export async function resolveCustomers(ctx: Ctx, refs: Iterable<string>): Promise<Map<string, Resolved>> {
  const distinct = [...new Set(refs)];
  const ids = distinct.filter((ref) => ref.startsWith('cus_'));
  const external = distinct.filter((ref) => !ref.startsWith('cus_'));
  const resolved = new Map<string, Resolved>();
  const live = await liveCustomers(ctx, ids);
  for (const id of ids) resolved.set(id, live.has(id) ? { customerId: id } : notFound(id));
  await Promise.all(
    external.map(async (ref) => {
      const candidates = await liveCustomers(ctx, await customerIdsByExternalId(ctx, ref));
      if (candidates.size === 0) return void resolved.set(ref, notFound(ref));
      if (candidates.size > 1) {
        return void resolved.set(ref, { problem: { code: 'customer_ambiguous', message: `external_id '${ref}' names ${candidates.size} customers; send the customer's cus_ id.` } });
      }
      resolved.set(ref, { customerId: [...candidates][0]! });
    }),
  );
  return resolved;
}

async function liveCustomers(ctx: Ctx, ids: string[]): Promise<Set<string>> {
  const found = (await batchGet(ids.map((id) => customerItemKey(ctx, id)), true)) as unknown as CustomerItem[];
  return new Set(found.filter((c) => !c.deleted_at).map((c) => c.id));
}
