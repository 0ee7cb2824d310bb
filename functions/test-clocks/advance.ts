import { advanceTestClock } from '../../shared/domain/test-clocks/advance';
import { getTestClock } from '../../shared/domain/test-clocks/manage';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/advanceTestClock.js';

/** A retry of an advance that committed but whose answer was lost (an Idempotency-Key) answers the clock as it is. */
export const handler = httpHandler<{ frozen_time: string }>(
  route,
  ({ ctx, path, body }) => advanceTestClock(ctx, path.id!, body),
  ({ ctx, path }) => getTestClock(ctx, path.id!),
);
