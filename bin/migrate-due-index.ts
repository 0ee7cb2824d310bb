/**
 * npm run --silent migrate:due-index
 * Once, after deploying issue 31's scheduler: moves the scheduling-index entries of the old shape (one partition per
 * workspace) to their year and shard (docs/deploy.md, "Scheduling index migration"). Against DynamoDB Local when
 * DYNAMODB_ENDPOINT is set, else AWS with the usual credentials and TABLE_NAME. Safe to run again.
 */
export {};

const local = Boolean(process.env.DYNAMODB_ENDPOINT);
if (!local && !process.env.TABLE_NAME) {
  console.error('Set TABLE_NAME (and AWS credentials), or DYNAMODB_ENDPOINT for DynamoDB Local.');
  process.exit(2);
}
if (local) {
  process.env.TABLE_NAME ??= 'billing';
  process.env.AWS_REGION ??= 'local';
}
// Imported only now: the table client reads DYNAMODB_ENDPOINT when its module loads.
const { migrateDueIndex } = await import('../shared/domain/schedules/migrate-due-index');
const { moved, skipped } = await migrateDueIndex((line) => console.error(line));
console.log(JSON.stringify({ moved, skipped }));
