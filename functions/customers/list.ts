import { listCustomers } from '../../shared/domain/customers/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listCustomers.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listCustomers(ctx, query));
