import { toCreditTransaction, type CreditTransactionItem } from '../../shared/domain/credits/credit';
import { lastCreated } from '../../shared/http/idempotency';
import { topUpCredits, type TopupInput } from '../../shared/domain/credits/topup';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/topupCustomerCredits.js';

export const handler = httpHandler<TopupInput>(
  route,
  ({ ctx, path, body }) => topUpCredits(ctx, path.id!, path.productId!, body),
  async (_input, created) => toCreditTransaction(await lastCreated<CreditTransactionItem>(created, 'credit_transaction')),
);
