import { deleteTestClock } from '../../shared/domain/test-clocks/manage';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/deleteTestClock.js';

export const handler = httpHandler(route, ({ ctx, path }) => deleteTestClock(ctx, path.id!));
