/**
 * npm run --silent migrate:analytics [-- --workspace ws_…]
 * Once, after deploying the revenue analytics: counts the invoices, credit notes and subscriptions written before
 * (docs/analytics.md, "Existing data"). Against DynamoDB Local when DYNAMODB_ENDPOINT is set, else AWS with the usual
 * credentials and TABLE_NAME. Safe to run again, and while the service runs.
 */
import { parseCommandLine, tableFromEnvironment } from './command-line';

const usage = `usage: npm run --silent migrate:analytics [-- --workspace ws_…]
  counts the documents and subscriptions written before the revenue analytics existed (all workspaces, or one);
  DynamoDB Local when DYNAMODB_ENDPOINT is set, else AWS (TABLE_NAME); safe to run again; docs/analytics.md`;
const { values } = parseCommandLine(usage, { options: { workspace: { type: 'string' } } });
tableFromEnvironment();

// Imported only now: the table client reads DYNAMODB_ENDPOINT when its module loads.
const { backfillAnalytics } = await import('../shared/domain/analytics/backfill');
const { counted } = await backfillAnalytics({ workspace: values.workspace, log: (line) => console.error(line) });
console.log(JSON.stringify({ counted }));
