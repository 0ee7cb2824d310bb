import { findLinkedInvoice, payInvoiceFromPage, type PayChoice } from '../../shared/domain/pages/invoice-page';
import { backTo, formNonce, isRefusal, pageHandler } from '../../shared/pages/page-handler';
import { route } from '../../shared/schemas/generated/invoicePagePay.js';

interface PayForm {
  csrf?: string;
  method: 'saved' | 'card';
  token?: string;
}

/**
 * The pay form: the charge of `POST /v1/invoices/{id}/charge`, once per form (a double click or a reload charges
 * nothing more), then back to the invoice page, which shows the outcome (paid, or the decline and why).
 */
export const handler = pageHandler<PayForm>(route, 'invoice', async (opened, input) => {
  const nonce = formNonce(opened, input, 'pay');
  if (!nonce) return backTo(opened.path, 'form_expired');
  const item = await findLinkedInvoice(opened.ctx, opened.claims.id, opened.claims.generation);
  const choice: PayChoice = input.body.method === 'card' ? { method: 'card', token: (input.body.token ?? '').trim() } : { method: 'saved' };
  try {
    const outcome = await payInvoiceFromPage(opened.ctx, item, choice, nonce);
    return backTo(opened.path, outcome.applied && outcome.result.status === 'paid' ? 'paid' : undefined);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    if (error.code === 'charge_in_progress' || error.code === 'idempotency_key_in_progress') return backTo(opened.path, 'in_progress');
    if (error.code === 'payment_method_invalid' || error.code === 'payment_method_missing') return backTo(opened.path, 'card_refused');
    if (error.code === 'too_many_payment_attempts') return backTo(opened.path, 'too_many_attempts');
    return backTo(opened.path); // nothing due any more, no longer payable: the page says so
  }
});
