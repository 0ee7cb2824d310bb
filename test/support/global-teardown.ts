import type { RunningDynamo } from '../../lib/local/dynamodb-local';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __dynamo?: RunningDynamo }).__dynamo?.stop();
}
