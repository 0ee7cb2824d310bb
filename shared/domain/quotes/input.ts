import type { Ctx } from '../../context';
import { InvalidRequest, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import type { CustomerItem } from '../customers/customer';
import { findCustomerItem } from '../customers/read';
import { assertNotArchived } from '../customers/rules';
import type { EntityItem } from '../invoicing-entities/invoicing-entity';
import { findEntityItem } from '../invoicing-entities/read';
import type { QuoteEditable, QuoteFile, QuoteLineInput, QuoteType } from './quote';

/** A document as the caller describes it: its id is made when it has none. */
export type QuoteFileInput = Omit<QuoteFile, 'id'> & { id?: string };

/** The body of `PATCH /v1/quotes/{id}`: omitted members are kept, `null` clears a nullable one. */
export type QuotePatch = Partial<Omit<QuoteEditable, 'attachments'>> & {
  line_items?: QuoteLineInput[];
  attachments?: QuoteFileInput[];
};

/** The body of `POST /v1/quotes`. */
export interface QuoteInput extends QuotePatch {
  customer_id: string;
  type: QuoteType;
  status?: 'draft' | 'approved' | 'pending_signature';
  line_items: QuoteLineInput[];
}

/** What a new quote holds unless the body says otherwise. */
export const EDITABLE_DEFAULTS: Omit<QuoteEditable, 'invoicing_entity_id'> = {
  starts_at: null,
  subscription_id: null,
  promotion_code: null,
  requires_approval: false,
  template_id: null,
  crm_opportunity_id: null,
  comments: null,
  terms: null,
  owner_email: null,
  expires_at: null,
  collect_payment_details: false,
  collect_custom_property_ids: [],
  collect_tax_id: false,
  display_quote_value: true,
  display_taxes: true,
  display_price_tiers: 'matching',
  display_phase_value: false,
  display_first_invoice_amount: false,
  display_documents_in_preview: false,
  display_subscription_on_update: true,
  display_total_with_tax: false,
  post_signature_activation_enabled: true,
  attachments: [],
};

export const withFileId = (file: QuoteFileInput): QuoteFile => ({ id: file.id ?? newId('quof'), name: file.name, mimetype: file.mimetype });

/** The editable members of `patch` as stored (attachments given ids), without the members it omits. */
export function editableChanges(patch: QuotePatch): Partial<QuoteEditable> {
  const { line_items: _lines, attachments, ...members } = patch;
  // There are no quote templates yet: an id would name nothing the workspace has (like plan_id, bank_account_id).
  if (members.template_id) {
    throw new RuleViolation('template_not_found', `No quote template with id '${members.template_id}': this service has no quote templates yet, so template_id takes null only.`);
  }
  const given = Object.fromEntries(Object.entries(members).filter(([, v]) => v !== undefined)) as Partial<QuoteEditable>;
  return { ...given, ...(attachments && { attachments: attachments.map(withFileId) }) };
}

const invalid = (field: string, message: string) => new InvalidRequest(`Invalid body: ${field} ${message}.`, [{ path: `body.${field}`, message }]);

/**
 * The members that depend on the quote's type (checked on the quote as it would be stored, 400 naming the member):
 * a subscription_update names the subscription it changes, and only it does; only a new subscription has a start
 * date; the total with tax is shown on one_off quotes only (billing-api.md).
 */
export function assertTypeRules(type: QuoteType, quote: Pick<QuoteEditable, 'subscription_id' | 'starts_at' | 'display_total_with_tax'>): void {
  if (type === 'subscription_update' && !quote.subscription_id) throw invalid('subscription_id', 'is required for a subscription_update quote');
  if (type !== 'subscription_update' && quote.subscription_id) throw invalid('subscription_id', 'applies only to subscription_update quotes');
  if (type !== 'subscription' && quote.starts_at) throw invalid('starts_at', 'applies only to subscription quotes');
  if (type !== 'one_off' && quote.display_total_with_tax) throw invalid('display_total_with_tax', 'applies only to one_off quotes');
}

/** The quote's customer: it must exist, not be deleted, and have a currency (the quote's). */
export async function quoteCustomer(ctx: Ctx, id: string): Promise<CustomerItem & { currency: string }> {
  const customer = await findCustomerItem(ctx, id).catch(() => undefined);
  if (!customer || customer.deleted_at) throw new RuleViolation('customer_not_found', `No customer with id '${id}' (or it is deleted).`);
  assertNotArchived(customer);
  if (!customer.currency) throw new RuleViolation('customer_currency_missing', `Customer '${id}' has no currency: set one before quoting it.`);
  return customer as CustomerItem & { currency: string };
}

export async function quoteEntity(ctx: Ctx, id: string): Promise<EntityItem> {
  const entity = await findEntityItem(ctx, id, true).catch(() => undefined);
  if (!entity || entity.deleted_at) throw new RuleViolation('invoicing_entity_not_found', `No invoicing entity with id '${id}' (or it is deleted).`);
  return entity;
}
