import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The import-time baseline of the benchmark: the least any function here can load (the DynamoDB client built
 * at module scope), bundled with the same options. Exported so esbuild cannot drop it as unused.
 */
export const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async () => ({ statusCode: 200 });
