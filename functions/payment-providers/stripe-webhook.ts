import { makeCtx } from '../../shared/context';
import { receiveStripeEvent } from '../../shared/domain/payments/stripe/webhooks';
import { publicHandler } from '../../shared/http/public-handler';
import { rawBody, headerValue } from '../../shared/http/request-parts';
import { route } from '../../shared/schemas/generated/stripeWebhook.js';

/** Stripe's signature is checked on the body exactly as sent (no parsing first), for the workspace the path names. */
export const handler = publicHandler<unknown, unknown>(route, ({ path, event, requestId }) =>
  receiveStripeEvent(makeCtx(path.workspace_id!, requestId), rawBody(event), headerValue(event.headers, 'stripe-signature')),
);
