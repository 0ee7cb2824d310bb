import type { DynamoDBRecord } from 'aws-lambda';
import { workspaceOf } from '../../shared/db/keys';
import { startEventRuntime, type EventRuntime } from '../../lib/local/event-runtime';

export type EventPipeline = EventRuntime;

/**
 * The event runtime of `npm start`, limited to the records of `workspaces` (test files share the table), with
 * deliveries run only when a test asks (it moves the clock).
 */
export function startEventPipeline(workspaces: Set<string>): Promise<EventPipeline> {
  const ours = (record: DynamoDBRecord) => {
    const ws = workspaceOf(record.dynamodb?.Keys?.pk?.S);
    return ws !== undefined && workspaces.has(ws);
  };
  return startEventRuntime({
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    tableName: process.env.TABLE_NAME!,
    from: 'latest',
    accept: ours,
    deliveryTickMs: false,
  });
}
