import { findLinkedInvoice } from '../../shared/domain/pages/invoice-page';
import { settleOnReturn } from '../../shared/domain/pages/stripe-page';
import { backTo, pageHandler } from '../../shared/pages/page-handler';
import { route } from '../../shared/schemas/generated/invoicePageReturn.js';

/**
 * Back from Stripe (3-D Secure done on the page, or Stripe's redirect): the pending charge is settled from the
 * PaymentIntent as Stripe holds it (what the query says is not trusted), then the page shows the outcome.
 */
export const handler = pageHandler(route, 'invoice', async (opened) => {
  const item = await findLinkedInvoice(opened.ctx, opened.claims.id, opened.claims.generation);
  await settleOnReturn(opened.ctx, item);
  // Read again: settled now, or by Stripe's webhook a moment before.
  const after = await findLinkedInvoice(opened.ctx, opened.claims.id, opened.claims.generation);
  return backTo(opened.path, after.status === 'paid' ? 'paid' : undefined);
});
