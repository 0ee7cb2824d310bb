import { readEntitlements } from '../../shared/domain/entitlements/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getCustomerEntitlements.js';

export const handler = httpHandler(route, ({ ctx, path }) => readEntitlements(ctx, path.id!));
