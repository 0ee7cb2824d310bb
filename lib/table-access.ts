import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { RouteDefinition } from '../functions/routes';
import { tableDefinition, type IndexName } from '../shared/db/table-definition';

/**
 * What a function may do with the table, declared per function kind instead of CDK's grantReadData /
 * grantReadWriteData (which grant Scan and every index, `table/index/*`). Transactions need no action of their own:
 * DynamoDB authorizes each entry of a TransactWriteItems as its Put, Update, Delete or ConditionCheck.
 */
export interface TableAccess {
  /** Actions on the table's items (the table ARN). */
  actions: readonly string[];
  /** Indexes the function queries (Query on `table/index/<name>`). */
  indexes: readonly IndexName[];
  /** Indexes the function scans (Scan on `table/index/<name>`; never the table). */
  scannedIndexes?: readonly IndexName[];
}

/** Item reads: single items, pages of items by key (BatchGetItem), and Query on the table's own keys. */
export const readActions = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;
/** Item writes, alone or as entries of a TransactWriteItems. Nothing in the code uses BatchWriteItem. */
export const writeActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'] as const;

/** Everything a worker does with items: it reads and writes (transactions included). */
const workerActions = [...readActions, ...writeActions];

/** The workers' access, by worker id (lib/event-pipeline.ts, lib/scheduler.ts). */
export const workerTableAccess = {
  /** Records events, messages and deliveries, and moves the revenue analytics (by key); lists the webhook endpoints (gsi1) subscribed to each event. */
  streamEvents: { actions: workerActions, indexes: ['gsi1'] },
  /**
   * Applies usage to hour buckets (read and written by key, the workspace's aggregators by Query); finds the credit
   * products naming an aggregator (gsi3) to consume credits by usage; a customer's active subscriptions (gsi2) for
   * their billing thresholds and the alerts (docs/usage-billing.md).
   */
  streamUsage: { actions: workerActions, indexes: ['gsi2', 'gsi3'] },
  /** Reads a delivery and its message, records the attempt and the delivery's next state. */
  deliverWebhooks: { actions: workerActions, indexes: [] },
  /**
   * Reads the email an SES report names and its customer; moves the email's status (with the customer's
   * `billing_email_status`, in one transaction) and the invoice's `email_status`. Updates only: it creates nothing.
   */
  applyEmailFeedback: { actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], indexes: [] },
  /**
   * Queries the scheduling index (gsi4) for what came due since its cursor and queues it: it reads and writes no item
   * but its lease and its cursor (lib/scheduler.ts, leaseStatement and cursorStatement: statements of their own,
   * conditioned on those items' partitions).
   */
  scheduledWork: { actions: [], indexes: ['gsi4'] },
  /**
   * Does queued due work by key; invoices it issues may price lines from gsi3; a subscription's metered usage reads
   * the customer's raw events (gsi2) for partial hours and bps; an export reads the workspace's lists (gsi1) and a
   * customer's credit balances (gsi3); a test clock's advance walks its workspace's partition of the scheduling
   * index (gsi4, docs/test-clocks.md).
   */
  dueWork: { actions: workerActions, indexes: ['gsi1', 'gsi2', 'gsi3', 'gsi4'] },
  /**
   * Reads the API key a request presents (one GetItem) and its workspace's revocation epoch (a GetItem every few
   * seconds), and records the key's use (`last_used_at`, once a minute).
   */
  authorizeRequests: { actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], indexes: [] },
} as const satisfies Record<string, TableAccess>;

/**
 * A route's access, derived from its method and the indexes it declares (`RouteDefinition.indexes`; a list route
 * without a declaration reads the list index, gsi1). GET routes only read (DESIGN.md §7); the rate limiter's counter
 * update has its own statement, conditioned on the counter's keys (lib/rate-limits.ts). The others write too (their
 * idempotency records among them), as do the GETs that declare `writes` (the OAuth browser flow).
 */
export const routeTableAccess = (route: Pick<RouteDefinition, 'method' | 'indexes' | 'response' | 'writes'>): TableAccess => ({
  actions: [...new Set([...readActions, ...(route.method === 'GET' && !route.writes ? [] : writeActions)])],
  indexes: route.indexes ?? (route.response.list ? ['gsi1'] : []),
});

const indexNames: readonly string[] = tableDefinition.globalIndexes.map((index) => index.name);

/**
 * Grants `access` on `table` to `grantee`: the actions on the table ARN, Query on each declared index ARN, Scan on
 * each scanned index ARN; and, for a table under a customer-managed key, use of that key (every function writes).
 */
export function grantTableAccess(grantee: IGrantable, table: ITable, access: TableAccess): void {
  const unknown = [...access.indexes, ...(access.scannedIndexes ?? [])].filter((name) => !indexNames.includes(name));
  if (unknown.length > 0) throw new Error(`grantTableAccess: no index ${unknown.join(', ')} in the table definition`);
  const indexArn = (name: string) => `${table.tableArn}/index/${name}`;
  if (access.actions.length > 0) Grant.addToPrincipal({ grantee, actions: [...access.actions], resourceArns: [table.tableArn] });
  if (access.indexes.length > 0) Grant.addToPrincipal({ grantee, actions: ['dynamodb:Query'], resourceArns: access.indexes.map(indexArn) });
  if (access.scannedIndexes?.length) Grant.addToPrincipal({ grantee, actions: ['dynamodb:Scan'], resourceArns: access.scannedIndexes.map(indexArn) });
  table.encryptionKey?.grantEncryptDecrypt(grantee);
}

/**
 * Read access to the table's stream, naming that stream (the four actions of AWS's own policy example for a Lambda
 * reading a DynamoDB stream). CDK's `grantStreamRead`, which DynamoEventSource calls, grants ListStreams on `*`.
 */
export function grantStreamRead(grantee: IGrantable, table: ITable): Grant {
  if (!table.tableStreamArn) throw new Error('grantStreamRead: the table has no stream');
  table.encryptionKey?.grantDecrypt(grantee);
  return Grant.addToPrincipal({
    grantee,
    actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'],
    resourceArns: [table.tableStreamArn],
  });
}

/**
 * The table as an event source sees it: the same table, whose `grantStreamRead` is the one above. Pass it to
 * `new DynamoEventSource(...)` in place of the table.
 */
export const withNarrowStreamGrant = (table: ITable): ITable =>
  Object.assign(Object.create(table) as ITable, { grantStreamRead: (grantee: IGrantable) => grantStreamRead(grantee, table) });
