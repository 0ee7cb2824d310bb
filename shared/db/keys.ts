import type { Ctx } from '../context';
import { shardOf } from './shards';

/**
 * Key builders. Every key starts with the workspace taken from ctx (the verified token), never from input.
 */
export interface Key {
  pk: string;
  sk: string;
}

const ws = (ctx: Ctx): string => `WS#${ctx.workspaceId}`;

/** The workspace of a stored item, from its key (`WS#<workspace>#…`); undefined for a key outside any workspace. */
export function workspaceOf(pk: unknown): string | undefined {
  const match = typeof pk === 'string' ? /^WS#([^#]+)#/.exec(pk) : null;
  return match?.[1];
}

/** The root item of an entity: one partition per entity, so its later children (ledger entries…) sit beside it. */
export const entityKey = (ctx: Ctx, type: EntityType, id: string): Key => ({ pk: `${ws(ctx)}#${type}#${id}`, sk: type });

/** The list index entry of an entity, ordered by creation: in a shard of the list when its type's is sharded. */
export const listIndexKeys = (ctx: Ctx, type: EntityType, createdAt: string, id: string) => ({ gsi1pk: listEntryPartition(ctx, type, id), gsi1sk: `${createdAt}#${id}` });

/** The list partition an entity's entry is written to: its shard when its type's list is sharded. */
export const listEntryPartition = (ctx: Ctx, type: EntityType, id: string): string => {
  const shards = LIST_SHARDS[type];
  return shards ? `${listPartition(ctx, type)}#${shardOf(id, shards)}` : listPartition(ctx, type);
};

export const listPartition = (ctx: Ctx, type: EntityType): string => `${ws(ctx)}#LIST#${type}`;

/**
 * Lists one workspace can write faster than one partition takes (1,000 write units/s; an entry is written at its
 * item's creation and at each change of its list fields: an invoice's status, a subscription's at each renewal):
 * their entries are spread over shards (`WS#<ws>#LIST#<type>#<shard>`, from the id), merged on read (pagination.ts).
 * docs/operations.md.
 */
const LIST_SHARDS: Partial<Record<EntityType, number>> = { INV: 8, SUB: 8 };

/** A list's index partitions: the unsharded one (every entry of an unsharded type, older ones of a sharded type), then the shards. */
export const listPartitions = (ctx: Ctx, type: EntityType): string[] => [
  listPartition(ctx, type),
  ...Array.from({ length: LIST_SHARDS[type] ?? 0 }, (_, shard) => `${listPartition(ctx, type)}#${shard}`),
];

/** The entry of an entity in the list of its parent (`field` = `value`), ordered by creation. */
export const parentListKeys = (ctx: Ctx, type: EntityType, field: string, value: string, createdAt: string, id: string) => ({
  gsi3pk: parentListPartition(ctx, type, field, value),
  gsi3sk: `${createdAt}#${id}`,
});

export const parentListPartition = (ctx: Ctx, type: EntityType, field: string, value: string): string =>
  `${listPartition(ctx, type)}#${field}=${value}`;

/** The scheduling index's keys (gsi4): by due year and shard, across workspaces (shared/db/due-keys.ts). */
export { dueIndexKeys } from './due-keys';

/**
 * A service-wide item, outside any workspace: the operator partition `OPS#<collection>` (quarantined stream records
 * whose workspace is unknown, the scheduled run's lease and cursor). No request reaches these: no credential names a workspace
 * `OPS`, and every request's key begins with `WS#`.
 */
export const operatorKey = (collection: string, name: string): Key => ({ pk: operatorPartition(collection), sk: name });
export const operatorPartition = (collection: string): string => `OPS#${collection}`;

/** A lease (shared/db/lease.ts): `OPS#LEASE` / `<name>`, held by one run at a time. */
export const LEASE_PARTITION = operatorPartition('LEASE');
export const leaseKey = (name: string): Key => ({ pk: LEASE_PARTITION, sk: name });

/** A scheduler's cursor (shared/domain/schedules/due-cursor.ts): `OPS#SCHEDULE` / `<name>`, where its next run reads from. */
export const SCHEDULE_PARTITION = operatorPartition('SCHEDULE');
export const scheduleCursorKey = (name: string): Key => ({ pk: SCHEDULE_PARTITION, sk: name });

/** Per-workspace counter of listed items of a type: the source of `meta.total`. */
export const counterKey = (ctx: Ctx, type: EntityType): Key => ({ pk: `${ws(ctx)}#COUNTER`, sk: type });

/** One shard of a counter spread over items of their own partitions (counters.ts), summed with counterKey's on read. */
export const counterShardKey = (ctx: Ctx, counter: string, shard: number): Key => ({ pk: `${ws(ctx)}#COUNTER#${counter}#${shard}`, sk: counter });

/** Per-workspace singletons (such as the default invoicing entity pointer). */
export const settingKey = (ctx: Ctx, name: string): Key => ({ pk: `${ws(ctx)}#SETTING`, sk: name });

/** An item of a per-workspace collection kept sorted by id (ULIDs sort by time): webhook messages, events. */
export const collectionKey = (ctx: Ctx, collection: string, id: string): Key => ({ pk: collectionPartition(ctx, collection), sk: id });
export const collectionPartition = (ctx: Ctx, collection: string): string => `${ws(ctx)}#${collection}`;

export type EntityType = 'CUS' | 'IVE' | 'CLI' | (string & {});
