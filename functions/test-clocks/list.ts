import { listTestClocks } from '../../shared/domain/test-clocks/manage';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listTestClocks.js';

export const handler = httpHandler(route, ({ ctx }) => listTestClocks(ctx));
