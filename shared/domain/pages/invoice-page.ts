import type { Ctx } from '../../context';
import { RuleViolation } from '../../errors';
import { toInvoice, type Invoice, type InvoiceItem, type PaymentTransaction } from '../invoices/invoice';
import { chargeInvoice } from '../invoices/charge';
import { canMove } from '../invoices/transitions';
import type { PaymentMethodItem } from '../payment-methods/payment-method';
import { createPaymentMethod } from '../payment-methods/create';
import { findPaymentMethod } from '../payment-methods/payment-methods';
import { audienceOf, type Audience } from './audience';
import { findLinkedInvoice } from './linked-invoice';
import { submitOnce, type Submission } from './page-effect';
import { pageStripe, pendingAuthentication, type PendingAuthentication } from './stripe-page';

export { documentUnavailable, findLinkedInvoice } from './linked-invoice';


export interface InvoicePage {
  invoice: Invoice;
  audience: Audience;
  /** The method a "pay" without a new card charges: the invoice's, else the customer's default (as charge does). */
  savedMethod: PaymentMethodItem | null;
  payable: boolean;
  /** A charge is at the provider right now. */
  chargeInProgress: boolean;
  /** The latest failed payment, while the invoice is in `error`. */
  lastFailure: PaymentTransaction | null;
  /** Stripe connected: a new card goes through Stripe's Payment Element, else the sandbox form. */
  stripe: { publishableKey: string } | null;
  /** A charge neither paid nor failed yet: Stripe is processing it, or it awaits the customer's authentication. */
  pending: 'processing' | 'authentication_required' | null;
  /** The authentication (3-D Secure) the page can complete now. */
  authentication: PendingAuthentication | null;
}

export async function invoicePage(ctx: Ctx, id: string, generation: number): Promise<InvoicePage> {
  const item = await findLinkedInvoice(ctx, id, generation);
  const audience = await audienceOf(ctx, item.customer_id, item.invoicing_entity_id);
  const methodId = item.payment_method_id ?? audience.customer.current_payment_method_id;
  const savedMethod = methodId ? await findPaymentMethod(ctx, item.customer_id, methodId).catch(() => null) : null;
  const failures = item.status === 'error' ? item.transactions.filter((t) => t.type === 'payment' && t.status === 'failed') : [];
  const [stripe, authentication] = await Promise.all([pageStripe(ctx), pendingAuthentication(ctx, item)]);
  return {
    invoice: toInvoice(item),
    audience,
    savedMethod,
    payable: item.type === 'invoice' && canMove(item, 'charge') && item.amount_due > 0,
    chargeInProgress: !!item.charge_attempt,
    lastFailure: failures.at(-1) ?? null,
    stripe,
    pending: item.pending_charge?.reason ?? null,
    authentication,
  };
}

/**
 * Against card testing (trying stolen card numbers on a public form): at most this many declined payments of one
 * invoice in the last hour; the page refuses further attempts until the oldest leaves the hour. The API's own
 * `POST …/charge` (a bearer credential, the workspace's rate limits) is not limited by it.
 */
export const PAGE_DECLINES_PER_HOUR = 5;

function assertFewDeclines(ctx: Ctx, item: InvoiceItem): void {
  const since = ctx.clock.now().getTime() - 3_600_000;
  const declines = item.transactions.filter((t) => t.type === 'payment' && t.status === 'failed' && Date.parse(t.process_at) > since);
  if (declines.length >= PAGE_DECLINES_PER_HOUR) {
    throw new RuleViolation('too_many_payment_attempts', `Invoice '${item.id}' was declined ${declines.length} times in the last hour: try again later.`);
  }
}

/** What the pay form sends: the saved method, or a token of the provider's card form (a new card, saved then charged). */
export type PayChoice = { method: 'saved' } | { method: 'card'; token: string };

/**
 * The pay button: charges the amount due through the very function of `POST /v1/invoices/{id}/charge` (claim,
 * provider, outcome), once per submitted form (page-effect.ts), unless the invoice was declined too often lately. A new card is first saved for the customer (it does
 * not become the default unless the customer has none, as `POST …/payment-methods` decides) and charged. With Stripe
 * connected, the token is the PaymentMethod the Payment Element made (a PaymentIntent per charge attempt, as always).
 */
export async function payInvoiceFromPage(ctx: Ctx, item: InvoiceItem, choice: PayChoice, nonce: string): Promise<Submission<Invoice>> {
  return submitOnce(ctx, 'payInvoicePage', nonce, { invoice: item.id, ...choice }, async () => {
    assertFewDeclines(ctx, item);
    const provider = (await pageStripe(ctx)) ? 'stripe' : 'sandbox';
    const method = choice.method === 'card' ? await createPaymentMethod(ctx, item.customer_id, { token: choice.token, provider }) : undefined;
    // The customer is on the page: on session (a 3-D Secure challenge can be answered there).
    return chargeInvoice(ctx, item.id, method?.id, undefined, true);
  });
}
