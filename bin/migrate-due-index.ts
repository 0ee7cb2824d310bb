/**
 * npm run --silent migrate:due-index
 * Once, after deploying issue 31's scheduler: moves the scheduling-index entries of the old shape (one partition per
 * workspace) to their year and shard (docs/deploy.md, "The scheduling index's new keys"). Against DynamoDB Local when
 * DYNAMODB_ENDPOINT is set, else AWS with the usual credentials and TABLE_NAME. Safe to run again.
 */
import { parseCommandLine, tableFromEnvironment } from './command-line';

const usage = `usage: npm run --silent migrate:due-index
  moves the scheduling index's entries of the old shape (WS#<ws>#DUE) to their year and shard, once after deploying;
  DynamoDB Local when DYNAMODB_ENDPOINT is set, else AWS (TABLE_NAME); safe to run again; docs/deploy.md`;
parseCommandLine(usage, {});
tableFromEnvironment();

// Imported only now: the table client reads DYNAMODB_ENDPOINT when its module loads.
const { migrateDueIndex } = await import('../shared/domain/schedules/migrate-due-index');
const { moved, skipped } = await migrateDueIndex((line) => console.error(line));
console.log(JSON.stringify({ moved, skipped }));
