import { deleteCustomer } from '../../shared/domain/customers/status';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/deleteCustomer.js';

export const handler = httpHandler(route, ({ ctx, path }) => deleteCustomer(ctx, path.id!));
