import { httpHandler } from '../../shared/http/handler';
import { getCustomerUsage, type UsageQuery } from '../../shared/domain/metering/customer-usage';
import { route } from '../../shared/schemas/generated/getCustomerUsage.js';

export const handler = httpHandler<unknown, UsageQuery>(route, ({ ctx, path, query }) => getCustomerUsage(ctx, path.id!, query));
