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

/**
 * Fault injection for tests only: `hook` runs after each DynamoDB operation succeeded, with the command's name,
 * and may throw (an answer lost after the commit), end the process (a crash after the commit), or hold the caller
 * back while it writes something of its own (a race between a read and a write).
 */
type AfterSendHook = (commandName: string) => void | Promise<void>;
let afterSend: AfterSendHook | undefined;
export const setAfterSendHook = (hook: AfterSendHook | undefined): void => {
  afterSend = hook;
};
raw.middlewareStack.add(
  (next, context) => async (args) => {
    const output = await next(args);
    await afterSend?.(context.commandName ?? '');
    return output;
  },
  { step: 'initialize', name: 'afterSendHook' },
);
// The local runtime only (never set in AWS): the process dies right after its first committed transaction.
if (endpoint && process.env.TEST_EXIT_AFTER_COMMIT === '1') {
  setAfterSendHook((name) => {
    if (name === 'TransactWriteItemsCommand') process.exit(70);
  });
}

export const db = DynamoDBDocumentClient.from(raw, {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
});

/** How many DynamoDB operations this process has sent (the benchmark reads it per request). */
export const dynamoCallCount = (): number => calls;

export const tableName = (): string => process.env.TABLE_NAME ?? 'billing';
