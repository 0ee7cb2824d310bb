import { listExports } from '../../shared/domain/exports/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listExports.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listExports(ctx, query));
