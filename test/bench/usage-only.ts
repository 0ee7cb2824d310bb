/** `npm run bench:usage`: the usage metering scenarios alone (usage-scenarios.ts), printed, docs untouched. */
import { randomUUID } from 'node:crypto';
import { ensureTable } from '../../lib/local/create-table';
import { startDynamoLocal } from '../../lib/local/dynamodb-local';
import { generateKeys } from '../../lib/local/jwt';
import { USAGE_BENCH } from './usage-settings';

process.env.TABLE_NAME = `billing-bench-usage-${randomUUID().slice(0, 6)}`;
process.env.AWS_REGION = 'local';
process.env.RATE_LIMIT_ENABLED = 'false';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const dynamo = await startDynamoLocal();
try {
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  await ensureTable(dynamo.endpoint, process.env.TABLE_NAME!);
  const { startLocalApi } = await import('../../lib/local/server');
  const { measureUsage } = await import('./usage-scenarios');
  const { usageReport } = await import('./usage-report');
  const keys = await generateKeys();
  const api = await startLocalApi({ keys, port: 0 });
  try {
    const results = await measureUsage({ baseUrl: api.url, keys, endpoint: dynamo.endpoint, ...USAGE_BENCH });
    console.log(usageReport(results));
  } finally {
    await api.close();
  }
} finally {
  await dynamo.stop();
}
