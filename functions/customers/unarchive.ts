import { setCustomerStatus } from '../../shared/domain/customers/status';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/unarchiveCustomer.js';

export const handler = httpHandler(route, ({ ctx, path }) => setCustomerStatus(ctx, path.id!, 'active'));
