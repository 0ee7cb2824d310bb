import { createTestClock, type TestClockRequest } from '../../shared/domain/test-clocks/manage';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createTestClock.js';

export const handler = httpHandler<TestClockRequest>(route, ({ ctx, body }) => createTestClock(ctx, body));
