import { setBillingTerms, type BillingTermsInput } from '../../shared/domain/subscriptions/billing-terms';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/setSubscriptionBillingTerms.js';

export const handler = httpHandler<BillingTermsInput>(route, ({ ctx, path, body }) => setBillingTerms(ctx, path.id!, body));
