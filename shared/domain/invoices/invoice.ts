import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { RuleViolation } from '../../errors';
import { dueIndexKeys, entityKey, listIndexKeys } from '../../db/keys';
import type { TaxSchemeName } from '../../money/tax-scheme';
import type { Address } from '../customers/customer';
import type { PaymentMethodSummary } from '../payment-methods/payment-method';
import type { DunningState } from '../collection/dunning';
import type { CollectionMethod } from '../collection/settings';
import { invoiceLinkExpiry, linkUrl, workspaceOfKey } from '../../pages/links';
import type { InvoiceEmailStatus } from '../../email/email-item';

export const INVOICE = 'INV';

export type InvoiceType = 'invoice' | 'credit_note' | 'document';

export type InvoiceStatus =
  | 'draft' | 'open' | 'grace_period' | 'to_pay' | 'partially_paid' | 'paid' | 'voided' | 'closed' | 'error' | 'missing_info'
  | 'archived' | 'charged_on_parent' | 'pending_parent_concat' | 'uncollectible';

/** Addresses are copied from the customer (billing address) and the entity, in the customer's address shape. */
export type InvoiceAddress = Address;

export interface InvoiceLineItem {
  id: string;
  name: string;
  description: string | null;
  entry_type: 'product' | 'custom' | 'wallet_load';
  product_id: string | null;
  product_type: string | null;
  price_id: string | null;
  units_count: number;
  unit_amount: number;
  /** Tax included: amount_excluding_tax + tax_amount. */
  amount: number;
  amount_excluding_tax: number;
  tax_rate: number;
  tax_rate_id: string | null;
  tax_amount: number;
  discount_amount: number;
  discount_percent: number | null;
  period_starts_at: string | null;
  period_ends_at: string | null;
  revenue_type: 'one_off' | 'recurring' | 'usage';
  revenue_interval_count: number | null;
  revenue_interval_period: string | null;
  display_unit_amount: boolean;
  display_service_period: boolean;
  original_line_item_id: string | null;
  /** UN/ECE Recommendation 20 unit code (e-invoices: BT-130); absent means C62 (one). */
  unit_code?: string;
  /** EN 16931 VAT category (BT-151) when given with the line; absent: derived from the rate and the tax scheme. */
  tax_category?: 'S' | 'Z' | 'E' | 'AE' | 'K' | 'G' | 'O' | 'L' | 'M';
  /** Why an untaxed line is untaxed (BT-120, BT-121 VATEX code), when given with the line. */
  tax_exemption_reason?: string;
  tax_exemption_reason_code?: string;
  /** Stored only: the exact rate given with the line (`tax_rate` on input), kept when the invoice is re-priced. */
  own_tax_rate?: string;
}

export interface AppliedCoupon {
  id: string;
  name: string;
  discount_amount: number;
  discount_percent: number | null;
  line_item_ids: string[];
}

export interface PaymentTransaction {
  id: string;
  type: 'payment' | 'refund';
  amount: number;
  currency: string;
  customer_id: string;
  provider_id: string | null;
  process_at: string;
  refunded_at: string | null;
  last_refreshed_at: string;
  /** The provider's fee for the payment (Stripe's balance transaction), in minor units; null when not reported. */
  provider_fee: number | null;
  /** A dispute of the payment at the provider (a chargeback), as the provider last reported it; null without one. */
  chargeback: Chargeback | null;
  integrations: unknown[];
  payment_method: PaymentMethodSummary | null;
  /** `pending`: at the provider, neither paid nor failed yet (a SEPA debit processing, 3-D Secure awaited). */
  status: 'succeeded' | 'failed' | 'pending';
  error_type: string | null;
  comment: string | null;
}

/** A payment's dispute (Stripe's Dispute): `status` as the provider says (`needs_response`, `under_review`, `won`, `lost`…). */
export interface Chargeback {
  provider_id: string;
  status: string;
  reason: string;
  amount: number;
  currency: string;
  opened_at: string;
}

/** The public invoice (billing-api.md "Invoice"), also credit notes and documents. */
export interface Invoice {
  id: string;
  number: string | null;
  type: InvoiceType;
  document_name: string | null;
  status: InvoiceStatus;
  reference: string | null;
  customer_id: string;
  purchase_order: string | null;
  currency: string;
  source: 'api' | 'other';
  total_amount: number;
  amount_due: number;
  amount_paid: number;
  /** What credit notes settled of the unpaid part: amount_due = total_amount − amount_paid − amount_credited. */
  amount_credited: number;
  amount_fixed: number;
  amount_excluding_tax: number;
  /** Deprecated: the rate shared by the lines (they all carry the invoice's scheme rate). */
  tax_rate: number;
  tax_amount: number;
  tax_scheme: TaxSchemeName;
  discount_amount: number;
  conversion_rate: number | null;
  converted_amount: number | null;
  converted_at: string | null;
  payment_method_id: string | null;
  bank_account_id: string | null;
  custom_note: string | null;
  additional_info: string | null;
  footer: string;
  customer: {
    id: string; name: string; email: string | null; external_id: string | null; vat_number: string | null; tax_id: string | null;
    address: InvoiceAddress | null;
  };
  /** `name` is the legal name; `trade_name` the entity's trade name, when it has one. */
  seller: { id: string; name: string; trade_name: string | null; tax_id: string | null; address: InvoiceAddress };
  subscription_id: string | null;
  period_starts_at: string | null;
  period_ends_at: string | null;
  emitted_at: string;
  due_at: string;
  refunded_at: string | null;
  grace_period_ended_at: string | null;
  settled_at: string | null;
  created_at: string;
  updated_at: string | null;
  properties: Record<string, unknown> | null;
  custom_properties: Record<string, unknown> | null;
  original_invoice_id: string | null;
  original_invoice_number: string | null;
  line_items: InvoiceLineItem[];
  coupons: AppliedCoupon[];
  transactions: PaymentTransaction[];
  /** Hyperline's: the charges of a saved payment method (any outcome); a payment recorded outside is none. */
  attempt_count: number;
  public_url: string;
  integrations: unknown[];
  /** Resolved when the invoice becomes payable (docs/collection.md); null before. */
  collection_method: CollectionMethod | null;
  /** The automatic collection and its retries; null for a manual invoice. */
  dunning: DunningState | null;
  /** What became of the invoice's latest email (docs/emails.md): `no_recipient` when its customer had no address; null before any. */
  email_status: InvoiceEmailStatus | null;
}

/** A coupon as applied: what is needed to apply it again when the lines change (PATCH). */
export interface CouponTerms {
  id: string;
  name: string;
  type: 'amount' | 'percent';
  discount_amount: number | null;
  discount_percent: number | null;
  product_ids: string[] | null;
  /** How long the coupon lasts on a subscription's invoices (once: the first; forever; duration: that long). */
  repeat?: 'once' | 'forever' | 'duration';
  duration?: { period: 'days' | 'weeks' | 'months' | 'years'; count: number } | null;
}

/** The stored invoice: the public members plus what the domain needs and never returns. */
export type InvoiceItem = StoredItem & Omit<Invoice, 'public_url' | 'attempt_count' | 'collection_method' | 'dunning' | 'email_status'> & {
  /** Set by the email pipeline (shared/email/invoice-email-status.ts) with `email_order`, the latest email's order. */
  email_status?: InvoiceEmailStatus | null;
  email_order?: string;
  /** Absent on invoices written before collection existed, and on drafts. */
  collection_method?: CollectionMethod | null;
  dunning?: DunningState | null;
  invoicing_entity_id: string;
  /** The scheme's rate as an exact decimal string ('20', '8.1'): the lines are taxed with it. */
  tax_rate_exact: string;
  coupon_terms: CouponTerms[];
  promotion_code_id: string | null;
  /** The coupons whose redemption this invoice counted (a discarded draft gives them back). */
  redeemed_coupon_ids?: string[];
  /** Which dates the caller fixed: leaving draft keeps those and computes the others. */
  fixed_dates: { emitted_at: boolean; due_at: boolean };
  /** Sum of the credit notes issued against this invoice (tax included): settled + refunded + credited without refund. */
  credited_amount: number;
  /** Sum refunded by those credit notes to the wallet or the payment method. */
  refunded_amount: number;
  /** Per line: what credit notes already took back (tax included). */
  credited_by_line: Record<string, number>;
  /** A paid wallet load this invoice pays for: the wallet is credited in the transaction that settles it. */
  wallet_load: { wallet_id: string; load_id: string } | null;
  /** Set while a charge is at the payment provider: no other payment may start (see charge.ts). */
  /** `provider_key`: the provider's idempotency key when derived from the request's Idempotency-Key (charge.ts). */
  /** `outcome_unknown`: the provider never answered; the next charge is this attempt again, under its key. */
  charge_attempt?: { id: string; started_at: string; first_started_at?: string; provider_key?: string; outcome_unknown?: boolean };
  /**
   * A charge the provider has not settled (its transaction is `pending`): no other charge starts until the provider
   * says (docs/payments.md). `collection_attempt`: the automatic collection's attempt that made it, whose outcome
   * moves the dunning when the provider settles it.
   */
  pending_charge?: { transaction_id: string; provider_id: string; reason: 'processing' | 'authentication_required'; collection_attempt?: number };
  /**
   * A credit note's refund asked of the provider and not confirmed yet (docs/payments.md, "Refunds"): the refund
   * transaction is pending and the credit note `to_pay` until the provider says.
   */
  pending_refund?: { transaction_id: string; payment_intent: string; amount: number };
  /** When it was marked uncollectible (by hand or by the dunning's final action): the date of its write-off in the journal. */
  written_off_at?: string;
  gsi4pk?: string;
  gsi4sk?: string;
  /** Revocation of the hosted page's links: revoking moves it on, and only links of the current one open (hosted-pages.md). */
  link_generation?: number;
};

export const invoiceKey = (ctx: Ctx, id: string) => entityKey(ctx, INVOICE, id);

export const invoiceListKeys = (ctx: Ctx, createdAt: string, id: string) => listIndexKeys(ctx, INVOICE, createdAt, id);

/** What the list filters see (the list index projects only these). */
type ListedMembers = 'status' | 'customer_id' | 'type' | 'emitted_at' | 'due_at' | 'number' | 'original_invoice_id' | 'subscription_id';

export const invoiceListFields = (i: Pick<Invoice, ListedMembers>) => ({
  status: i.status,
  customer_id: i.customer_id,
  type: i.type,
  emitted_at: i.emitted_at,
  due_at: i.due_at,
  number: i.number,
  original_invoice_id: i.original_invoice_id,
  subscription_id: i.subscription_id,
});

/** Where the customer pays: the invoice's hosted page, a signed capability link (docs/hosted-pages.md). */
export const publicUrl = (item: Pick<InvoiceItem, 'pk' | 'id' | 'due_at' | 'emitted_at' | 'link_generation'>): string =>
  linkUrl({ kind: 'invoice', workspaceId: workspaceOfKey(item.pk), id: item.id, generation: item.link_generation ?? 0, expiresAt: invoiceLinkExpiry(item) });

/** The grace period's end in the scheduling index (gsi4), for the scheduled move to to_pay. */
export const GRACE_PERIOD = 'invoice_grace';
export const graceDueKeys = (ctx: Ctx, item: Pick<InvoiceItem, 'id' | 'grace_period_ended_at'>) =>
  dueIndexKeys(ctx, item.grace_period_ended_at!, GRACE_PERIOD, item.id);

/** DynamoDB's item limit is 400 KB; the JSON size is close to the stored size, with room to spare for later writes. */
const MAX_ITEM_BYTES = 350_000;

/** 422 rather than DynamoDB's refusal (a 500) when the lines do not fit in one invoice. */
export function assertStorable(item: InvoiceItem): void {
  const bytes = Buffer.byteLength(JSON.stringify(item));
  if (bytes > MAX_ITEM_BYTES) {
    throw new RuleViolation('invoice_too_large', `The invoice would take ${bytes} bytes; an invoice holds at most ${MAX_ITEM_BYTES} (fewer lines or shorter descriptions).`);
  }
}

const INTERNAL = [
  'pk', 'sk', '_type', '_version', 'gsi1pk', 'gsi1sk', 'gsi4pk', 'gsi4sk', 'lf', 'invoicing_entity_id', 'tax_rate_exact', 'coupon_terms',
  'promotion_code_id', 'redeemed_coupon_ids', 'fixed_dates', 'credited_amount', 'refunded_amount', 'credited_by_line', 'wallet_load', 'charge_attempt',
  'link_generation', 'pending_charge', 'pending_refund', 'email_order', 'written_off_at',
] as const;

/** A saved method's summary has a status; a way of paying that is no saved method (a transfer, the wallet) has none. */
const chargeAttempts = (transactions: PaymentTransaction[]) =>
  transactions.filter((t) => t.type === 'payment' && t.payment_method?.status != null).length;

export function toInvoice(item: InvoiceItem): Invoice {
  const copy: Record<string, unknown> = { ...item };
  if (Array.isArray(item.line_items)) copy.line_items = item.line_items.map(({ own_tax_rate: _own, ...line }) => line);
  for (const name of INTERNAL) delete copy[name];
  return { ...(copy as unknown as Omit<Invoice, 'public_url' | 'attempt_count'>), attempt_count: chargeAttempts(item.transactions ?? []), amount_credited: item.amount_credited ?? 0, collection_method: item.collection_method ?? null, dunning: item.dunning ?? null, email_status: item.email_status ?? null, public_url: publicUrl(item) };
}
