import type { Ctx } from '../../context';
import { RuleViolation } from '../../errors';
import type { Tier } from '../pricing/types';
import { findPriceConfigurationItem } from '../catalog/price-configurations';
import { updateCustomer } from '../customers/update';
import { createPaymentMethod } from '../payment-methods/create';
import { toQuote, type Quote, type QuoteItem, type QuoteLineItem } from '../quotes/quote';
import { findQuoteItem } from '../quotes/read';
import { signQuote } from '../quotes/sign';
import { getSubscription } from '../subscriptions/read';
import type { Subscription } from '../subscriptions/subscription';
import { audienceOf, type Audience } from './audience';
import { documentUnavailable } from './linked-invoice';
import { submitOnce, type Submission } from './page-effect';

/** A quote has a page while it waits for the signature and once signed (its `url` is null otherwise). */
const SHOWN = new Set(['pending_signature', 'signed']);
const TIERED = new Set(['volume', 'packaged', 'bulk']);

export interface QuotePage {
  quote: Quote;
  audience: Audience;
  /** Per line (same order), the tiers to show as `display_price_tiers` asks: all, those the quantity used, or none. */
  tiers: Tier[][];
  /** `display_subscription_on_update`: the subscription a subscription_update quote changes. */
  subscription: Subscription | null;
  /** What the first invoice bills before tax: each line's first period (the whole of a one-off price). */
  firstInvoiceAmount: number;
}

export async function findLinkedQuote(ctx: Ctx, id: string, generation: number): Promise<QuoteItem> {
  const item = await findQuoteItem(ctx, id).catch(() => undefined);
  if (!item || !SHOWN.has(item.status) || (item.link_generation ?? 0) !== generation) throw documentUnavailable(id);
  return item;
}

async function tiersOf(ctx: Ctx, quote: QuoteItem, line: QuoteLineItem): Promise<Tier[]> {
  if (quote.display_price_tiers === 'none' || !TIERED.has(line.price_type)) return [];
  const configuration = await findPriceConfigurationItem(ctx, line.price_configuration_id).catch(() => undefined);
  const all = (configuration?.prices ?? []) as Tier[];
  if (quote.display_price_tiers === 'all') return all;
  const used = new Set(line.tiers.map((t) => t.from));
  return all.filter((tier) => used.has(tier.from));
}

export async function quotePage(ctx: Ctx, id: string, generation: number): Promise<QuotePage> {
  const item = await findLinkedQuote(ctx, id, generation);
  const [audience, tiers, subscription] = await Promise.all([
    audienceOf(ctx, item.customer_id, item.invoicing_entity_id),
    Promise.all(item.line_items.map((line) => tiersOf(ctx, item, line))),
    item.type === 'subscription_update' && item.display_subscription_on_update && item.subscription_id
      ? getSubscription(ctx, item.subscription_id).catch(() => null)
      : Promise.resolve(null),
  ]);
  return { quote: toQuote(item), audience, tiers, subscription, firstInvoiceAmount: item.line_items.reduce((sum, l) => sum + l.amount_per_period, 0) };
}

/** The signature form: who signs, the acceptance, and what the quote asks to collect first. */
export interface SignatureForm {
  signer_name: string;
  signer_email: string;
  /** `collect_payment_details`: a token of the provider's card form. */
  token?: string;
  /** `collect_tax_id`. */
  tax_id?: string;
  /** `collect_custom_property_ids`: one value per id. */
  custom_properties: Record<string, string>;
}

const missing = (field: string) => new RuleViolation('field_required', field);

/**
 * The sign button: what the quote collects first (payment details: a card saved as the customer's default; the tax
 * id and custom properties on the customer), then the signature through the very function of
 * `POST /v1/quotes/{id}/sign`, once per submitted form (page-effect.ts). A refusal of the signature (the quote
 * expired, prices changed) leaves what was collected in place: it belongs to the customer, not to the quote.
 */
export async function signFromPage(ctx: Ctx, item: QuoteItem, form: SignatureForm, nonce: string): Promise<Submission<Quote>> {
  if (!form.signer_name.trim()) throw missing('signer_name');
  if (!form.signer_email.trim()) throw missing('signer_email');
  if (item.collect_payment_details && !form.token?.trim()) throw missing('token');
  if (item.collect_tax_id && !form.tax_id?.trim()) throw missing('tax_id');
  const absent = item.collect_custom_property_ids.find((id) => !form.custom_properties[id]?.trim());
  if (absent) throw missing(absent);
  return submitOnce(ctx, 'signQuotePage', nonce, { quote: item.id, ...form }, async () => {
    if (item.collect_payment_details) await createPaymentMethod(ctx, item.customer_id, { token: form.token!.trim(), set_as_default: true });
    const collected = Object.fromEntries(item.collect_custom_property_ids.map((id) => [id, form.custom_properties[id]!.trim()]));
    if (item.collect_custom_property_ids.length > 0 || item.collect_tax_id) {
      const customer = (await audienceOf(ctx, item.customer_id)).customer;
      await updateCustomer(ctx, item.customer_id, {
        ...(item.collect_custom_property_ids.length > 0 && { custom_properties: { ...customer.custom_properties, ...collected } }),
        ...(item.collect_tax_id && { vat_number: form.tax_id!.trim() }),
      });
    }
    return signQuote(ctx, item.id, { signer_name: form.signer_name.trim(), signer_email: form.signer_email.trim() });
  });
}
