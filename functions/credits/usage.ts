import { useCredits, type UsageInput } from '../../shared/domain/credits/usage';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createCustomerCreditsUsage.js';

export const handler = httpHandler<UsageInput>(route, ({ ctx, path, body }) => useCredits(ctx, path.id!, path.productId!, body));
