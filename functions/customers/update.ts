import type { CustomerInput } from '../../shared/domain/customers/input';
import { updateCustomer } from '../../shared/domain/customers/update';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updateCustomer.js';

export const handler = httpHandler<CustomerInput>(route, ({ ctx, path, body }) => updateCustomer(ctx, path.id!, body));
