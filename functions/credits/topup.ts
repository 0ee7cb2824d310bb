import { topUpCredits, type TopupInput } from '../../shared/domain/credits/topup';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/topupCustomerCredits.js';

export const handler = httpHandler<TopupInput>(route, ({ ctx, path, body }) => topUpCredits(ctx, path.id!, path.productId!, body));
