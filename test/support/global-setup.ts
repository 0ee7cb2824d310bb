import { ensureTable } from '../../lib/local/create-table';
import { startDynamoLocal } from '../../lib/local/dynamodb-local';

/**
 * One DynamoDB Local (in memory) for the whole run; test files isolate themselves by workspace id.
 * DYNAMODB_ENDPOINT may point at an already running DynamoDB instead.
 */
export default async function globalSetup(): Promise<void> {
  if (!process.env.DYNAMODB_ENDPOINT) {
    const dynamo = await startDynamoLocal();
    (globalThis as { __dynamo?: typeof dynamo }).__dynamo = dynamo;
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  }
  process.env.TABLE_NAME ??= 'billing-test';
  process.env.AWS_REGION ??= 'local';
  // Handlers called directly by tests are not rate-limited; startTestApi({ rateLimits }) turns the limiter on.
  process.env.RATE_LIMIT_ENABLED ??= 'false';
  // Lambda runs Node 22; the SDK's notice about Node 20 on developer machines is noise in test output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  // Request log lines and EMF metrics stay off the test output (a test that checks them turns them on).
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  await ensureTable(process.env.DYNAMODB_ENDPOINT, process.env.TABLE_NAME);
}
