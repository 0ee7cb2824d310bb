import { getTestClock } from '../../shared/domain/test-clocks/manage';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getTestClock.js';

export const handler = httpHandler(route, ({ ctx, path }) => getTestClock(ctx, path.id!));
