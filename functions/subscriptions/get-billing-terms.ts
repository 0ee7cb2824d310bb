import { getBillingTerms } from '../../shared/domain/subscriptions/billing-terms';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getSubscriptionBillingTerms.js';

export const handler = httpHandler(route, ({ ctx, path }) => getBillingTerms(ctx, path.id!));
