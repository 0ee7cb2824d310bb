import { getCustomer } from '../../shared/domain/customers/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getCustomer.js';

export const handler = httpHandler(route, ({ ctx, path }) => getCustomer(ctx, path.id!));
