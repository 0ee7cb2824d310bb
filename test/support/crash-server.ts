/**
 * The local API alone in a child process, for process-kill tests (test/integration/idempotency-kill.test.ts): keys
 * from TEST_JWT_KEYS, the table from DYNAMODB_ENDPOINT and TABLE_NAME; prints its URL on stdout. With
 * TEST_EXIT_AFTER_COMMIT=1 the process dies right after its first committed transaction (shared/db/client.ts).
 */
import type { LocalKeys } from '../../lib/local/jwt';
import { startLocalApi } from '../../lib/local/server';

const keys = JSON.parse(process.env.TEST_JWT_KEYS ?? '') as LocalKeys;
const api = await startLocalApi({ keys, port: 0 });
process.stdout.write(`${api.url}\n`);
