/**
 * The one table, described once: the CDK stack and the local runtime both build it from this.
 * gsi1 serves every list: `gsi1pk` = `WS#<ws>#LIST#<type>`, `gsi1sk` = `<created_at>#<id>`. It projects
 * only the keys and `lf` (the item's list-filter fields), so skipping reads small index entries, not items.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'ttl',
  globalIndexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: { type: 'INCLUDE', attributes: ['lf'] } },
    // Webhook messages by event type: `gsi2pk` = `WS#<ws>#MSGTYPE#<event_type>`, `gsi2sk` = the message id.
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: { type: 'ALL' } },
    // Lists narrowed to one parent (price configurations of a product, …): `gsi3pk` =
    // `WS#<ws>#LIST#<TYPE>#<field>=<value>`, `gsi3sk` = `<created_at>#<id>`. Keys only: skipping stays cheap.
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: { type: 'KEYS_ONLY' } },
    // Sparse: only items awaiting time-driven work (credits that expire, wallets to auto-load…) carry
    // `gsi4pk` = `DUE#<year of due at>#<shard>` (or `DUE#LATE#<shard>`: written already due), `gsi4sk` =
    // `<due at>#<kind>#<id>[#<group>]` (shared/db/due-keys.ts). The scheduler queries the range since its cursor, so
    // its cost follows what came due, not what is scheduled; an item leaves the index when its work is done.
    { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk', projection: { type: 'KEYS_ONLY' } },
  ],
} as const satisfies { globalIndexes: readonly IndexDefinition[] } & Record<string, unknown>;

interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey: string;
  projection: { type: 'INCLUDE'; attributes: readonly string[] } | { type: 'ALL' } | { type: 'KEYS_ONLY' };
}

export type IndexName = (typeof tableDefinition.globalIndexes)[number]['name'];
