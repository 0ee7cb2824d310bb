import { getCreditBalance } from '../../shared/domain/credits/balances';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getCustomerCredit.js';

export const handler = httpHandler(route, ({ ctx, path }) => getCreditBalance(ctx, path.id!, path.productId!));
