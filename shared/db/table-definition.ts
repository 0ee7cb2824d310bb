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
  ],
} as const;

export type IndexName = (typeof tableDefinition.globalIndexes)[number]['name'];
