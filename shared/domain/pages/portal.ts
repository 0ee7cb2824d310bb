import type { Ctx } from '../../context';
import { listCreditBalances } from '../credits/balances';
import { updateCustomer } from '../customers/update';
import type { Invoice } from '../invoices/invoice';
import { listInvoices } from '../invoices/read';
import { aggregatorUsage } from '../metering/customer-usage';
import { activeSubscriptionsOf } from '../metering/customer-subscriptions';
import type { PaymentMethod } from '../payment-methods/payment-method';
import { createPaymentMethod, saveAttachedMethod } from '../payment-methods/create';
import { paymentProvider } from '../payments/provider';
import { listPaymentMethods } from '../payment-methods/payment-methods';
import { removePaymentMethod } from '../payment-methods/remove';
import { isMetered, unitNameOf } from '../subscriptions/metered';
import { listSubscriptions } from '../subscriptions/read';
import type { Subscription } from '../subscriptions/subscription';
import { findCustomerWallet } from '../wallets/wallets';
import { audienceOf, type Audience } from './audience';
import { submitOnce, type Submission } from './page-effect';
import { pageStripe } from './stripe-page';
import { getItem } from '../../db/items';
import { methodReferenceKey } from '../payment-methods/payment-method';
import type { PortalSessionItem } from './portal-sessions';
import type { PortalSettings } from '../invoicing-entities/portal-settings';
import { allowedPlans, settingsOfEntity } from './portal-actions';

/** The most recent documents a portal lists (of each kind). */
export const PORTAL_DOCUMENTS = 50;

export interface UsageLine {
  product: string;
  unit: string;
  value: number;
  since: string;
}

export interface PortalPage {
  audience: Audience;
  invoices: Invoice[];
  creditNotes: Invoice[];
  subscriptions: Subscription[];
  paymentMethods: PaymentMethod[];
  wallet: { amount: number; currency: string } | null;
  credits: Array<{ name: string; balance: number }>;
  usage: UsageLine[];
  /** What the customer may do (its entity's portal_settings), and the plans it may switch to. */
  settings: PortalSettings;
  plans: Array<{ id: string; name: string; currency: string }>;
}

/** Newest first, the customer's issued documents of one type (drafts and discarded drafts are not the customer's yet). */
async function documentsOf(ctx: Ctx, customerId: string, type: 'invoice' | 'credit_note'): Promise<Invoice[]> {
  const filters = { customer_id: customerId, type, status__notIn: 'draft,closed' };
  // The list is oldest first: count the matches, then read the last page (a count that stopped early, flagged
  // approximateCount, is a lower bound: the page is then an earlier one).
  const { meta } = await listInvoices(ctx, { take: 0, skip: 0, ...filters });
  const page = await listInvoices(ctx, { take: PORTAL_DOCUMENTS, skip: Math.max(0, meta.total - PORTAL_DOCUMENTS), ...filters });
  return page.data.reverse();
}

/** The usage of each metered product of the customer's active subscriptions, since its current period began. */
async function currentUsage(ctx: Ctx, customerId: string): Promise<UsageLine[]> {
  const now = ctx.clock.now().toISOString();
  const subscriptions = await activeSubscriptionsOf(ctx, customerId);
  const metered = subscriptions.flatMap((s) => s.products.filter(isMetered).map((p) => ({ s, p })));
  return Promise.all(
    metered.map(async ({ s, p }) => {
      const since = s.current_period_started_at < now ? s.current_period_started_at : now;
      const usage = since < now ? await aggregatorUsage(ctx, customerId, p.aggregator_id!, since, now) : { value: 0 };
      return { product: p.name, unit: unitNameOf(p), value: usage.value, since };
    }),
  );
}

/** Everything the portal shows: only this customer's, read through the API's own domain functions. */
export async function portalPage(ctx: Ctx, session: PortalSessionItem): Promise<PortalPage> {
  const customerId = session.customer_id;
  const audience = await audienceOf(ctx, customerId);
  const settings = await settingsOfEntity(ctx, audience.customer.invoicing_entity_id);
  const [invoices, creditNotes, subscriptions, methods, wallet, credits, usage] = await Promise.all([
    documentsOf(ctx, customerId, 'invoice'),
    documentsOf(ctx, customerId, 'credit_note'),
    listSubscriptions(ctx, { take: 100, skip: 0, customer_id: customerId }),
    listPaymentMethods(ctx, customerId, { take: 100, skip: 0 }),
    findCustomerWallet(ctx, customerId),
    listCreditBalances(ctx, customerId, { take: 100, skip: 0 }),
    currentUsage(ctx, customerId).catch(() => []),
  ]);
  const plans = await allowedPlans(ctx, settings);
  return {
    audience,
    invoices,
    creditNotes,
    subscriptions: subscriptions.data.filter((s) => s.status !== 'cancelled').reverse(),
    paymentMethods: methods.data,
    wallet: wallet ? { amount: wallet.balance, currency: wallet.currency } : null,
    credits: credits.data.map((c) => ({ name: c.name, balance: c.current_balance })),
    usage,
    settings,
    plans,
  };
}

/**
 * A card from the portal's form: the sandbox's token, or with Stripe connected the PaymentMethod the Payment Element's
 * SetupIntent attached. That one may be saved already, by Stripe's `setup_intent.succeeded` arriving first: then
 * it is not saved twice.
 */
async function addCard(ctx: Ctx, customerId: string, token: string): Promise<unknown> {
  if (!(await pageStripe(ctx))) return createPaymentMethod(ctx, customerId, { token });
  const reference = methodReferenceKey(ctx, 'stripe', token);
  if (await getItem(reference, true)) return null;
  const attached = await paymentProvider('stripe').attach(token, { ctx, customerId });
  return saveAttachedMethod(ctx, customerId, 'stripe', attached, { once: true, also: async () => ((await getItem(reference, true)) ? undefined : []) });
}

export type PortalAction =
  | { action: 'add_card'; token: string }
  | { action: 'make_default'; payment_method_id: string }
  | { action: 'remove'; payment_method_id: string };

/**
 * The portal's forms, each once per submission (page-effect.ts), through the API's own functions: saving a card
 * (`POST …/payment-methods`), choosing the default (`PUT /v1/customers/{id}` with `payment_method_id`), removing one
 * (`DELETE …/payment-methods/{pmId}`). Every id is checked against the session's customer by those functions.
 */
export async function portalAction(ctx: Ctx, session: PortalSessionItem, input: PortalAction, nonce: string): Promise<Submission<unknown>> {
  const customerId = session.customer_id;
  return submitOnce(ctx, `portal_${input.action}`, nonce, { session: session.id, ...input }, async () => {
    switch (input.action) {
      case 'add_card':
        return addCard(ctx, customerId, input.token);
      case 'make_default':
        return updateCustomer(ctx, customerId, { payment_method_id: input.payment_method_id });
      case 'remove':
        return removePaymentMethod(ctx, customerId, input.payment_method_id);
    }
  });
}
