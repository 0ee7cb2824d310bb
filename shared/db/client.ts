import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * Built once per process (module scope), so a warm Lambda reuses its connections.
 * DYNAMODB_ENDPOINT is set only by the local runtime and the tests.
 */
const endpoint = process.env.DYNAMODB_ENDPOINT;

const raw = new DynamoDBClient({
  ...(endpoint && {
    endpoint,
    region: process.env.AWS_REGION ?? 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
});

let calls = 0;
raw.middlewareStack.add(
  (next) => (args) => {
    calls += 1;
    return next(args);
  },
  { step: 'initialize', name: 'countDynamoCalls' },
);

export const db = DynamoDBDocumentClient.from(raw, {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
});

/** How many DynamoDB operations this process has sent (the benchmark reads it per request). */
export const dynamoCallCount = (): number => calls;

export const tableName = (): string => process.env.TABLE_NAME ?? 'billing';
