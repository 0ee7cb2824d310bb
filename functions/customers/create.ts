import { createCustomer } from '../../shared/domain/customers/create';
import type { CustomerInput } from '../../shared/domain/customers/input';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createCustomer.js';

export const handler = httpHandler<CustomerInput & { name: string }>(route, ({ ctx, body }) => createCustomer(ctx, body));
