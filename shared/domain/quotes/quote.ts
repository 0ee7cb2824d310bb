import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { entityKey, listIndexKeys } from '../../db/keys';
import type { BillingInterval, CommitmentInterval } from '../catalog/price-configuration';
import type { PriceType, TierCharge } from '../pricing/types';
import { linkUrl, quoteLinkExpiry, workspaceOfKey } from '../../pages/links';

export const QUOTE = 'QUO';

export type QuoteStatus = 'draft' | 'pending_approval' | 'changes_requested' | 'approved' | 'pending_signature' | 'signed' | 'voided';
export type QuoteType = 'subscription' | 'subscription_update' | 'one_off';
export type PriceTierDisplay = 'all' | 'matching' | 'none';

/** A document named by the quote (attachments, the signed file): its description only, no file is stored. */
export interface QuoteFile {
  id: string;
  name: string;
  mimetype: string;
}

/** A line as the caller gives it. */
export interface QuoteLineInput {
  price_configuration_id: string;
  product_id?: string;
  quantity?: number;
}

/** A line as stored and returned: the catalog reference, and its value as the pricing engine computed it. */
export interface QuoteLineItem {
  product_id: string;
  price_configuration_id: string;
  quantity: number;
  /** The product's name when the line was priced. */
  name: string;
  price_type: PriceType;
  billing_interval: BillingInterval;
  commitment_interval: CommitmentInterval;
  /** What one billing period of this quantity costs (the whole amount for a one-off price), before tax and discounts. */
  amount_per_period: number;
  /** How many billing periods the line counts in the quote's value (docs/quotes.md, "Amount"). */
  billing_periods: number;
  /** amount_per_period × billing_periods. */
  amount: number;
  /** The tiers the quantity used, for `display_price_tiers: matching`. */
  tiers: TierCharge[];
}

/** Members a PATCH may change (in draft and changes_requested), also given at creation. */
export interface QuoteEditable {
  invoicing_entity_id: string;
  starts_at: string | null;
  subscription_id: string | null;
  promotion_code: string | null;
  requires_approval: boolean;
  template_id: string | null;
  crm_opportunity_id: string | null;
  comments: string | null;
  terms: string | null;
  owner_email: string | null;
  expires_at: string | null;
  collect_payment_details: boolean;
  collect_custom_property_ids: string[];
  /** The customer must give a tax ID during signature. */
  collect_tax_id: boolean;
  display_quote_value: boolean;
  display_taxes: boolean;
  display_price_tiers: PriceTierDisplay;
  display_phase_value: boolean;
  display_first_invoice_amount: boolean;
  display_documents_in_preview: boolean;
  display_subscription_on_update: boolean;
  /** Show the total including tax (one_off quotes only). */
  display_total_with_tax: boolean;
  post_signature_activation_enabled: boolean;
  attachments: QuoteFile[];
}

/** The public quote (billing-api.md "Quote", decisions.md "Quotes"). */
export interface Quote extends QuoteEditable {
  id: string;
  number: string;
  customer_id: string;
  type: QuoteType;
  status: QuoteStatus;
  currency: string;
  /** Estimated contract value: the sum of the lines' amounts (docs/quotes.md). */
  amount: number;
  line_items: QuoteLineItem[];
  /** Subscriptions created (or, for an update, changed) by the signature. */
  child_subscription_ids: string[];
  /** The invoice a one_off quote's signature issued. */
  invoice_id: string | null;
  signed_file: QuoteFile | null;
  /** The public page of the quote: only in pending_signature and signed, else null. */
  url: string | null;
  /** Hyperline's name of `post_signature_activation_enabled` (docs/hyperline.md). */
  automatically_start_subscription: boolean;
  sent_at: string | null;
  sent_to: string | null;
  sent_message: string | null;
  signed_at: string | null;
  signer_name: string | null;
  signer_email: string | null;
  void_reason: string | null;
  voided_at: string | null;
  created_at: string;
  updated_at: string;
}

export type QuoteItem = StoredItem & Omit<Quote, 'url' | 'automatically_start_subscription'> & {
  /** Revocation of the hosted page's links (docs/hosted-pages.md). */
  link_generation?: number;
};

export const quoteKey = (ctx: Ctx, id: string) => entityKey(ctx, QUOTE, id);

export const quoteListKeys = (ctx: Ctx, createdAt: string, id: string) => listIndexKeys(ctx, QUOTE, createdAt, id);

/** What the list filters see (the list index projects only these). */
export const quoteListFields = (q: Pick<Quote, 'status' | 'customer_id' | 'type' | 'number' | 'created_at'>) => ({
  status: q.status,
  customer_id: q.customer_id,
  type: q.type,
  number: q.number,
  created_at: q.created_at,
});

/** Where the customer reads and signs the quote: its hosted page, a signed capability link (docs/hosted-pages.md). */
export const quotePageUrl = (item: Pick<QuoteItem, 'pk' | 'id' | 'created_at' | 'expires_at' | 'link_generation'>): string =>
  linkUrl({ kind: 'quote', workspaceId: workspaceOfKey(item.pk), id: item.id, generation: item.link_generation ?? 0, expiresAt: quoteLinkExpiry(item) });

const WITH_URL: readonly QuoteStatus[] = ['pending_signature', 'signed'];

const INTERNAL = ['pk', 'sk', '_type', '_version', 'gsi1pk', 'gsi1sk', 'lf', 'link_generation'] as const;

export function toQuote(item: QuoteItem): Quote {
  const copy: Record<string, unknown> = { ...item };
  for (const name of INTERNAL) delete copy[name];
  return {
    ...(copy as unknown as Omit<Quote, 'url' | 'automatically_start_subscription'>),
    url: WITH_URL.includes(item.status) ? quotePageUrl(item) : null,
    automatically_start_subscription: item.post_signature_activation_enabled,
  };
}
