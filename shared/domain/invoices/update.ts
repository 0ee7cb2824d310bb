import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { retryOnRace, versionCondition } from '../../db/items';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { Conflict } from '../../errors';
import { assertCollectable } from '../collection/payable';
import type { CollectionMethod } from '../collection/settings';
import { definedMembers } from '../../objects';
import { productArchived } from '../catalog/errors';
import { productUsableCheck } from '../catalog/usable';
import { formatRate } from '../../money/tax-rate';
import { invoiceAmounts, type PricedLine } from './amounts';
import { assertStorable, invoiceListFields, toInvoice, type Invoice, type InvoiceItem } from './invoice';
import { resolveLines, type LineInput } from './lines';
import { findInvoiceItem } from './read';
import { paymentReferenceChecks } from './references';

export interface InvoicePatch {
  line_items?: LineInput[];
  tax_rate?: number;
  emitted_at?: string;
  due_at?: string;
  period_starts_at?: string | null;
  period_ends_at?: string | null;
  document_name?: string | null;
  purchase_order?: string | null;
  reference?: string | null;
  custom_note?: string | null;
  additional_info?: string | null;
  footer?: string;
  payment_method_id?: string | null;
  bank_account_id?: string | null;
  properties?: Record<string, unknown> | null;
  custom_properties?: Record<string, unknown> | null;
  /** Its own collection method, over its subscription's and customer's (null: theirs); decided when it becomes payable. */
  collection_method?: CollectionMethod | null;
}

/** Members that may change at any status: metadata and how the invoice is to be paid. */
const ALWAYS = new Set<keyof InvoicePatch>(['properties', 'custom_properties', 'payment_method_id', 'bank_account_id']);
/** The issue date is fixed once the invoice is numbered (the number may carry it). */
const DRAFT_ONLY = new Set<keyof InvoicePatch>(['emitted_at']);

function assertEditable(invoice: InvoiceItem, patch: InvoicePatch): void {
  const given = (Object.keys(patch) as (keyof InvoicePatch)[]).filter((k) => patch[k] !== undefined);
  const editable = invoice.status === 'draft' || (invoice.status === 'grace_period' && !given.some((k) => DRAFT_ONLY.has(k)));
  const blocked = given.filter((k) => !ALWAYS.has(k));
  if (blocked.length > 0 && !editable) {
    const what = blocked.includes('emitted_at') && invoice.status === 'grace_period' ? 'emitted_at changes only in draft' : 'its lines, dates and texts change only in draft or grace_period';
    throw new Conflict(`Invoice '${invoice.id}' is ${invoice.status}: ${what} (${blocked.join(', ')} given).`, 'invoice_not_editable');
  }
}

/**
 * `PATCH /v1/invoices/{id}`: omitted members are kept, `null` clears. New lines (or a new manual rate) re-price the
 * invoice: its coupons are applied again and every amount recomputed, in one conditional write.
 */
export async function updateInvoice(ctx: Ctx, id: string, patch: InvoicePatch): Promise<Invoice> {
  const first = await findInvoiceItem(ctx, id);
  assertEditable(first, patch);
  assertCollectable(first.type, patch.collection_method);
  const resolved = patch.line_items ? await resolveLines(ctx, patch.line_items, first.currency) : undefined;
  return retryOnRace(async () => {
    const current = await findInvoiceItem(ctx, id);
    assertEditable(current, patch);
    const { line_items: _lines, tax_rate, ...members } = patch;
    const next: InvoiceItem = { ...current, ...definedMembers(members), updated_at: ctx.clock.now().toISOString() };
    next.fixed_dates = { emitted_at: current.fixed_dates.emitted_at || patch.emitted_at !== undefined, due_at: current.fixed_dates.due_at || patch.due_at !== undefined };
    if (tax_rate !== undefined) Object.assign(next, { tax_scheme: 'manual', tax_rate_exact: formatRate(tax_rate), tax_rate: Number(formatRate(tax_rate)) });
    if (resolved || tax_rate !== undefined) {
      const lines: PricedLine[] = resolved?.lines ?? current.line_items.map(({ amount_excluding_tax, discount_amount, amount: _a, tax_rate: _t, tax_amount: _x, discount_percent: _p, ...line }) => ({ ...line, gross: amount_excluding_tax + discount_amount }));
      const amounts = invoiceAmounts(lines, current.coupon_terms, next.tax_rate_exact, current.currency);
      Object.assign(next, amounts, { amount_due: amounts.total_amount - current.amount_paid });
    }
    next.lf = invoiceListFields(next);
    assertStorable(next);
    const checks = (resolved?.productIds ?? []).slice(0, 40);
    const written = { ...next, _version: current._version + 1 };
    const references = paymentReferenceChecks(ctx, current.customer_id, {
      payment_method_id: patch.payment_method_id !== current.payment_method_id ? patch.payment_method_id : undefined,
      bank_account_id: patch.bank_account_id !== current.bank_account_id ? patch.bank_account_id : undefined,
    });
    try {
      await transactWrite([
        ...checks.map((p) => productUsableCheck(ctx, p)), { Put: { TableName: tableName(), Item: written, ...versionCondition(current._version) } }, ...references.map((r) => r.item),
      ]);
    } catch (error) {
      if (error instanceof ConditionFailed && error.index < checks.length) throw productArchived(checks[error.index]!);
      if (error instanceof ConditionFailed && error.index > checks.length) throw references[error.index - checks.length - 1]!.error();
      throw error;
    }
    return toInvoice(written);
  });
}
