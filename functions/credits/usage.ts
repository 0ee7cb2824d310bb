import { toCreditTransaction, type CreditTransactionItem } from '../../shared/domain/credits/credit';
import { lastCreated } from '../../shared/http/idempotency';
import { useCredits, type UsageInput } from '../../shared/domain/credits/usage';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createCustomerCreditsUsage.js';

export const handler = httpHandler<UsageInput>(
  route,
  ({ ctx, path, body }) => useCredits(ctx, path.id!, path.productId!, body),
  async (_input, created) => toCreditTransaction(await lastCreated<CreditTransactionItem>(created, 'credit_transaction')),
);
