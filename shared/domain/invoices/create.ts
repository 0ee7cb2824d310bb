import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { retryOnRace } from '../../db/items';
import { counterPlaces } from '../../db/counters';
import { type Key } from '../../db/keys';
import { batchGet, counterUpdate } from '../../db/pagination';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transactions';
import { RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { assertCollectable } from '../collection/payable';
import type { CollectionMethod } from '../collection/settings';
import { customerItemKey, type CustomerItem } from '../customers/customer';
import { currencyLockItem, type CustomerAlso } from '../customers/currency-lock';
import { findCustomerItem } from '../customers/read';
import { assertNotArchived } from '../customers/rules';
import { customerInvoiceCounter, isFirstOrderForCode } from './read';
import { entityItemKey, type EntityItem } from '../invoicing-entities/invoicing-entity';
import { findEntityItem } from '../invoicing-entities/read';
import { invoiceAmounts, type PricedLine } from './amounts';
import { redemptionsFor, type Redemptions } from './coupons';
import { addDays, paymentDelay } from './dates';
import { assertStorable, INVOICE, invoiceKey, type CouponTerms, invoiceListFields, invoiceListKeys, toInvoice, type Invoice, type InvoiceItem } from './invoice';
import { issue } from './issue';
import { paymentReferenceChecks } from './references';
import { resolveLines } from './lines';
import { customerSnapshot, sellerSnapshot } from './snapshots';
import { invoiceTaxScheme } from './tax';
import type { InvoicePatch } from './update';

/** The body of `POST /v1/invoices`: what a PATCH may change, and what only creation decides. */
export interface InvoiceInput extends InvoicePatch {
  customer_id: string;
  invoicing_entity_id?: string;
  type?: 'invoice' | 'document';
  status?: 'draft' | 'to_pay';
  currency?: string;
  coupon_ids?: string[];
  promotion_code?: string;
}

/** What other domains add when they issue an invoice (wallet loads, subscriptions). */
export interface IssuingOptions {
  /** Lines priced by the caller, used instead of `line_items`. */
  lines?: PricedLine[];
  /** Coupons already redeemed elsewhere (a subscription's, at its signature): applied, not counted again. */
  coupons?: CouponTerms[];
  taxScheme?: 'not_eligible';
  walletLoad?: InvoiceItem['wallet_load'];
  subscriptionId?: string;
  /**
   * The invoice continues an arrangement made before (a subscription's period, a wallet's scheduled auto-load): it is
   * issued even if the customer was archived since. Any other new invoice of an archived customer is a 422.
   */
  continuing?: boolean;
  /** The invoice's id, chosen by the caller so that its own items in `also` can name the invoice (a signed quote). */
  invoiceId?: string;
  /** More writes that must happen with the invoice (e.g. the wallet's pending load). */
  also?: TransactItem[];
  /**
   * What a failed condition of `also` means. Without it the whole creation is read and tried again (right for a
   * version race); with it, the error it returns is thrown at once (e.g. a 409 when the quote being signed was voided).
   */
  alsoFailed?: (index: number) => Error | undefined;
  /**
   * More changes to the customer item, made by the Update that locks its currency (a transaction touches an item
   * once): e.g. a subscription's summary, kept on the customer in the same transaction as its invoice.
   */
  customer?: CustomerAlso;
  /** The subscription's collection method (null: inherit the customer's), recorded when the invoice is payable. */
  collectionMethod?: CollectionMethod | null;
}


function usableCustomer(customer: CustomerItem | undefined, id: string, options: IssuingOptions): CustomerItem {
  if (!customer || customer.deleted_at) throw new RuleViolation('customer_not_found', `No customer with id '${id}' (or it is deleted).`);
  if (!billsArchived(options)) assertNotArchived(customer);
  return customer;
}

const customerFor = async (ctx: Ctx, id: string, options: IssuingOptions): Promise<CustomerItem> =>
  usableCustomer(await findCustomerItem(ctx, id).catch(() => undefined), id, options);

const billsArchived = (options: IssuingOptions) => options.continuing === true;

function usableEntity(entity: EntityItem | undefined, id: string): EntityItem {
  if (!entity || entity.deleted_at) throw new RuleViolation('invoicing_entity_not_found', `No invoicing entity with id '${id}' (or it is deleted).`);
  return entity;
}

const entityFor = async (ctx: Ctx, id: string): Promise<EntityItem> => usableEntity(await findEntityItem(ctx, id, true).catch(() => undefined), id);

type Resolved = { lines: PricedLine[]; productIds: string[] };

interface IssuingReads {
  customer: CustomerItem;
  entity: EntityItem;
  firstOrder: boolean;
  currency: string;
  resolved: Resolved;
}

/**
 * The customer, the entity, the customer's invoice counter (first order or not; read only under a promotion code),
 * strongly consistent, and the lines priced (`price`, in the customer's currency). When the caller names the entity
 * (a subscription's renewal does) the first three are one BatchGetItem, and lines priced by the caller need nothing
 * more; otherwise the customer says which entity, read after it with the counter and the lines' catalog.
 */
async function issuingReads(ctx: Ctx, input: InvoiceInput, options: IssuingOptions, price: (currency: string) => Promise<Resolved>): Promise<IssuingReads> {
  const entityId = input.invoicing_entity_id;
  if (!entityId) {
    const customer = await customerFor(ctx, input.customer_id, options);
    const currency = currencyOf(customer, input.currency);
    const [resolved, entity, firstOrder] = await Promise.all([price(currency), entityFor(ctx, customer.invoicing_entity_id), isFirstOrderForCode(ctx, customer.id, input.promotion_code)]);
    return { customer, entity, firstOrder, currency, resolved };
  }
  const keys = { customer: customerItemKey(ctx, input.customer_id), entity: entityItemKey(ctx, entityId) };
  // The customer's invoice count only for a promotion code's first-order rule (isFirstOrderForCode).
  const counter = input.promotion_code ? counterPlaces(ctx, customerInvoiceCounter(input.customer_id)) : [];
  const found = await batchGet([keys.customer, keys.entity, ...counter], true);
  const at = <T>(key: Key) => found.find((item) => item.pk === key.pk && item.sk === key.sk) as T | undefined;
  const customer = usableCustomer(at<CustomerItem>(keys.customer), input.customer_id, options);
  const currency = currencyOf(customer, input.currency);
  const entity = usableEntity(at<EntityItem>(keys.entity), entityId);
  const invoices = counter.reduce((sum, key) => sum + Number(at<{ total?: number }>(key)?.total ?? 0), 0);
  return { customer, entity, firstOrder: counter.length > 0 && invoices === 0, currency, resolved: await price(currency) };
}

function currencyOf(customer: CustomerItem, given: string | undefined): string {
  if (!customer.currency) throw new RuleViolation('customer_currency_missing', `Customer '${customer.id}' has no currency: set one before invoicing it.`);
  if (given && given !== customer.currency) {
    throw new RuleViolation('currency_mismatch', `Customer '${customer.id}' is billed in ${customer.currency}; an invoice in ${given} is not possible.`);
  }
  return customer.currency;
}

/**
 * Creates an invoice (draft by default, or to_pay: then numbered now). One transaction writes the invoice, its
 * list counters, the customer's currency lock, the products' still-usable checks, the coupons' and promotion code's
 * redemptions and, when it leaves draft, the entity's number: all of it, or nothing.
 */
export async function createInvoice(ctx: Ctx, input: InvoiceInput, options: IssuingOptions = {}): Promise<Invoice> {
  assertCollectable(input.type ?? 'invoice', input.collection_method);
  const price = async (currency: string): Promise<Resolved> => (options.lines ? { lines: options.lines, productIds: [] } : resolveLines(ctx, input.line_items ?? [], currency));
  const { customer, entity: firstEntity, firstOrder, currency, resolved } = await issuingReads(ctx, input, options, price);
  let attempt = 0;
  return retryOnRace(async () => {
    // A retry means something changed under us (most often another invoice took the entity's number): read the
    // customer and its entity again, in one BatchGetItem when the entity is named.
    const again = attempt++ === 0 ? undefined : input.invoicing_entity_id ? await issuingReads(ctx, input, options, async () => resolved) : undefined;
    const current = attempt === 1 ? customer : (again?.customer ?? (await customerFor(ctx, input.customer_id, options)));
    const entity = attempt === 1 ? firstEntity : (again?.entity ?? (await entityFor(ctx, input.invoicing_entity_id ?? current.invoicing_entity_id)));
    currencyOf(current, currency);
    const redemptions = await redemptionsFor(ctx, {
      couponIds: input.coupon_ids ?? [], promotionCode: input.promotion_code, customerId: current.id, productIds: resolved.productIds, currency, isFirstOrder: firstOrder,
    });
    const tax = invoiceTaxScheme(current, entity, { tax_rate: input.tax_rate, tax_scheme: options.taxScheme });
    const countedIds = redemptions.terms.map((t) => t.id);
    if (options.coupons) redemptions.terms.unshift(...options.coupons);
    const amounts = invoiceAmounts(resolved.lines, redemptions.terms, tax.rate, currency);
    const draft = draftItem(ctx, input, { customer: current, entity, currency, tax, amounts, redemptions: { ...redemptions, countedIds }, options });
    const issued = input.status === 'to_pay' ? issue(ctx, draft, entity, current, { allowGrace: false, collectionMethod: options.collectionMethod }) : undefined;
    const invoice = issued?.invoice ?? draft;
    assertStorable(invoice);
    // The lines' products were read strongly consistent (active, not deleted: lines.ts), and are not checked again in
    // the transaction: a product every invoice uses would then be in every creation's transaction, and an item takes
    // one transaction at a time (~40/s: docs/scale.md). A product archived in the same instant may still be on it.
    const references = paymentReferenceChecks(ctx, current.id, input);
    const items: TransactItem[] = [
      ...references.map((r) => r.item),
      { Put: { TableName: tableName(), Item: invoice, ConditionExpression: 'attribute_not_exists(pk)' } },
      counterUpdate(ctx, INVOICE, 1),
      counterUpdate(ctx, customerInvoiceCounter(current.id), 1),
      currencyLockItem(ctx, current.id, 'invoice', currency, billsArchived(options) ? options.customer : { ...options.customer, expect: { ...options.customer?.expect, status: 'active' } }),
      ...(issued ? [issued.numbering] : []),
      ...redemptions.items,
      ...(options.also ?? []),
    ];
    try {
      await transactWrite(items);
    } catch (error) {
      if (error instanceof ConditionFailed && error.index < references.length) throw references[error.index]!.error();
      const alsoIndex = error instanceof ConditionFailed ? error.index - (items.length - (options.also?.length ?? 0)) : -1;
      const mapped = alsoIndex >= 0 ? options.alsoFailed?.(alsoIndex) : undefined;
      if (mapped) throw mapped;
      throw error; // anything else changed under us: retryOnRace reads again and re-checks every rule
    }
    return toInvoice(invoice);
  });
}

interface DraftParts {
  customer: CustomerItem;
  entity: EntityItem;
  currency: string;
  tax: { scheme: InvoiceItem['tax_scheme']; rate: string };
  amounts: ReturnType<typeof invoiceAmounts>;
  redemptions: Pick<Redemptions, 'terms' | 'promotionCodeId'> & { countedIds: string[] };
  options: IssuingOptions;
}

function draftItem(ctx: Ctx, input: InvoiceInput, parts: DraftParts): InvoiceItem {
  const { customer, entity, amounts } = parts;
  const id = parts.options.invoiceId ?? newId('inv');
  const now = ctx.clock.now().toISOString();
  const emitted_at = input.emitted_at ?? now;
  const item: InvoiceItem = {
    ...invoiceKey(ctx, id),
    ...invoiceListKeys(ctx, now, id),
    _type: 'invoice',
    _version: 0,
    id,
    number: null,
    type: input.type ?? 'invoice',
    document_name: input.document_name ?? null,
    status: 'draft',
    reference: input.reference ?? null,
    customer_id: customer.id,
    purchase_order: input.purchase_order ?? null,
    currency: parts.currency,
    source: 'api',
    ...amounts,
    amount_paid: 0,
    amount_credited: 0,
    amount_due: amounts.total_amount,
    tax_rate: Number(parts.tax.rate),
    tax_scheme: parts.tax.scheme,
    conversion_rate: null,
    converted_amount: null,
    converted_at: null,
    payment_method_id: input.payment_method_id ?? null,
    bank_account_id: input.bank_account_id ?? null,
    custom_note: input.custom_note ?? null,
    additional_info: input.additional_info ?? null,
    footer: input.footer ?? (input.type === 'document' ? entity.document_footer ?? entity.invoice_footer : entity.invoice_footer),
    customer: customerSnapshot(customer),
    seller: sellerSnapshot(entity),
    subscription_id: parts.options.subscriptionId ?? null,
    period_starts_at: input.period_starts_at ?? null,
    period_ends_at: input.period_ends_at ?? null,
    emitted_at,
    due_at: input.due_at ?? addDays(emitted_at, paymentDelay(customer, entity)),
    refunded_at: null,
    grace_period_ended_at: null,
    settled_at: null,
    created_at: now,
    updated_at: now,
    properties: input.properties ?? null,
    custom_properties: input.custom_properties ?? null,
    original_invoice_id: null,
    original_invoice_number: null,
    transactions: [],
    integrations: [],
    invoicing_entity_id: entity.id,
    tax_rate_exact: parts.tax.rate,
    coupon_terms: parts.redemptions.terms,
    promotion_code_id: parts.redemptions.promotionCodeId,
    redeemed_coupon_ids: parts.redemptions.countedIds,
    fixed_dates: { emitted_at: input.emitted_at !== undefined, due_at: input.due_at !== undefined },
    // The caller's own choice, which withCollection (issue.ts) puts first when the invoice becomes payable.
    collection_method: input.collection_method ?? null,
    credited_amount: 0,
    refunded_amount: 0,
    credited_by_line: {},
    wallet_load: parts.options.walletLoad ?? null,
  };
  item.lf = invoiceListFields(item);
  return item;
}

/** What a renewal's invoice needs read beforehand (one BatchGetItem for many renewals: billing-batch.ts). */
export interface RenewalReads {
  customer: CustomerItem | undefined;
  /** The entity, its invoice counter at the number this invoice takes. */
  entity: EntityItem | undefined;
}

/**
 * The writes of one renewal's invoice, issued (to_pay) with the number its `entity` counter stands at, for a
 * transaction that holds several: the invoice, the customer's invoice counter, the customer's currency lock with
 * `options.customer`, and `options.also`. Not included, because the transaction moves them once for all its invoices:
 * the workspace's invoice counter and the entity's numbering counter. Only for lines priced by the caller, without
 * coupon ids, promotion code or payment references (a subscription's renewal); throws what createInvoice would.
 */
export function renewalInvoiceWrites(ctx: Ctx, input: InvoiceInput, options: IssuingOptions & { lines: PricedLine[] }, reads: RenewalReads): { invoice: InvoiceItem; items: TransactItem[] } {
  const customer = usableCustomer(reads.customer, input.customer_id, options);
  const entity = usableEntity(reads.entity, input.invoicing_entity_id ?? customer.invoicing_entity_id);
  const currency = currencyOf(customer, input.currency);
  const tax = invoiceTaxScheme(customer, entity, { tax_rate: input.tax_rate, tax_scheme: options.taxScheme });
  const terms = [...(options.coupons ?? [])];
  const amounts = invoiceAmounts(options.lines, terms, tax.rate, currency);
  const draft = draftItem(ctx, { ...input, status: 'to_pay' }, { customer, entity, currency, tax, amounts, redemptions: { terms, promotionCodeId: null, countedIds: [] }, options });
  const { invoice } = issue(ctx, draft, entity, customer, { allowGrace: false, collectionMethod: options.collectionMethod });
  assertStorable(invoice);
  return {
    invoice,
    items: [
      { Put: { TableName: tableName(), Item: invoice, ConditionExpression: 'attribute_not_exists(pk)' } },
      counterUpdate(ctx, customerInvoiceCounter(customer.id), 1),
      currencyLockItem(ctx, customer.id, 'invoice', currency, billsArchived(options) ? options.customer : { ...options.customer, expect: { ...options.customer?.expect, status: 'active' } }),
      ...(options.also ?? []),
    ],
  };
}
