import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { putIfUnchanged, retryOnRace, versionCondition } from '../../db/items';
import { transactWrite } from '../../db/transactions';
import { findCustomerItem } from '../customers/read';
import { findEntityItem } from '../invoicing-entities/read';
import { invoiceListFields, toInvoice, type Invoice, type InvoiceItem, type InvoiceStatus } from './invoice';
import { releaseRedemptionItems } from './coupons';
import { issue } from './issue';
import { findInvoiceItem } from './read';
import { assertMove, type Move } from './transitions';

/**
 * Numbering is the hottest race of the API (every validation of an entity takes the same counter): more attempts
 * than an ordinary edit, so 25 validations at once all get through (test/integration/invoice-numbering.test.ts).
 */
const NUMBERING_ATTEMPTS = 60;

/** draft → grace_period or to_pay, numbered in the same transaction as the move (no gap, no duplicate). */
export async function validateInvoice(ctx: Ctx, id: string): Promise<Invoice> {
  return retryOnRace(async () => {
    const draft = await findInvoiceItem(ctx, id);
    assertMove(draft, 'validate');
    const [entity, customer] = await Promise.all([findEntityItem(ctx, draft.invoicing_entity_id, true), findCustomerItem(ctx, draft.customer_id)]);
    const { invoice, numbering } = issue(ctx, draft, entity, customer, { allowGrace: true });
    const next = { ...invoice, _version: draft._version + 1 };
    await transactWrite([{ Put: { TableName: tableName(), Item: next, ...versionCondition(draft._version) } }, numbering]);
    return toInvoice(next);
  }, NUMBERING_ATTEMPTS);
}

/** A move that changes only the status (and what goes with it), as one conditional put. */
async function simpleMove(ctx: Ctx, id: string, move: Move, to: InvoiceStatus): Promise<Invoice> {
  return retryOnRace(async () => {
    const current = await findInvoiceItem(ctx, id);
    assertMove(current, move);
    const now = ctx.clock.now().toISOString();
    const next: InvoiceItem = { ...current, status: to, updated_at: now, ...(to === 'uncollectible' && { written_off_at: now }) };
    next.lf = invoiceListFields(next);
    return toInvoice(await putIfUnchanged(next, current._version));
  });
}

/**
 * `DELETE /v1/invoices/{id}`: a draft is discarded (closed), never removed; it keeps no number. The redemptions it
 * counted (promotion code, coupons) are given back in the same transaction.
 */
export async function deleteInvoice(ctx: Ctx, id: string): Promise<Invoice> {
  return retryOnRace(async () => {
    const current = await findInvoiceItem(ctx, id);
    assertMove(current, 'delete');
    const next: InvoiceItem = { ...current, _version: current._version + 1, status: 'closed', promotion_code_id: null, redeemed_coupon_ids: [], updated_at: ctx.clock.now().toISOString() };
    next.lf = invoiceListFields(next);
    await transactWrite([{ Put: { TableName: tableName(), Item: next, ...versionCondition(current._version) } }, ...releaseRedemptionItems(ctx, current)]);
    return toInvoice(next);
  });
}

export const markUncollectible = (ctx: Ctx, id: string) => simpleMove(ctx, id, 'uncollectible', 'uncollectible');
