import {
  CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException, UpdateTableCommand, UpdateTimeToLiveCommand,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '../../shared/db/table-definition';

const { partitionKey, sortKey, globalIndexes, ttlAttribute } = tableDefinition;
const keyNames = new Set<string>([partitionKey, sortKey, ...globalIndexes.flatMap((i) => [i.partitionKey, i.sortKey])]);
const attributeDefinitions = [...keyNames].map((name) => ({ AttributeName: name, AttributeType: 'S' as const }));

const indexSpec = (index: (typeof globalIndexes)[number]): GlobalSecondaryIndex => ({
  IndexName: index.name,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' },
    { AttributeName: index.sortKey, KeyType: 'RANGE' },
  ],
  Projection: { ProjectionType: index.projection.type, ...('attributes' in index.projection && { NonKeyAttributes: [...index.projection.attributes] }) },
});

/**
 * Creates the table and its indexes as the CDK stack declares them (from the same definition), if missing; on a
 * table kept from an earlier version (`.local/`), adds the indexes it lacks.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<'created' | 'existed' | 'updated'> {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
    const missing = globalIndexes.filter((i) => !present.has(i.name));
    for (const index of missing) {
      await client.send(
        new UpdateTableCommand({ TableName: tableName, AttributeDefinitions: attributeDefinitions, GlobalSecondaryIndexUpdates: [{ Create: indexSpec(index) }] }),
      );
    }
    client.destroy();
    return missing.length > 0 ? 'updated' : 'existed';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: attributeDefinitions,
      KeySchema: [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        { AttributeName: sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: globalIndexes.map(indexSpec),
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }),
  );
  await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { Enabled: true, AttributeName: ttlAttribute } }));
  client.destroy();
  return 'created';
}
