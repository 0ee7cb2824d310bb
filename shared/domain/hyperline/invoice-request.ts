import type { Ctx } from '../../context';
import { RuleViolation } from '../../errors';
import { createInvoice, type InvoiceInput } from '../invoices/create';
import type { Invoice } from '../invoices/invoice';
import type { LineInput } from '../invoices/lines';
import { recordPayment } from '../invoices/payments';
import { oneOf } from './aliases';

type HyperlineLine = LineInput & { period_start?: string | null; period_end?: string | null };

/** `POST /v1/invoices` as Hyperline documents it, beside this API's own members (docs/hyperline.md). */
export interface HyperlineInvoiceInput extends Omit<InvoiceInput, 'status' | 'line_items'> {
  status?: InvoiceInput['status'] | 'paid';
  line_items?: HyperlineLine[];
  number?: string;
  payment_method_strategy?: 'current' | 'external';
  settled_at?: string;
}

function ourLine({ period_start, period_end, ...line }: HyperlineLine): LineInput {
  const starts = oneOf(line.period_starts_at, period_start, 'period_starts_at and period_start');
  const ends = oneOf(line.period_ends_at, period_end, 'period_ends_at and period_end');
  return { ...line, ...(starts !== undefined && { period_starts_at: starts }), ...(ends !== undefined && { period_ends_at: ends }) };
}

/** Hyperline's members in this API's terms; checked before anything is written. */
export function toInvoiceInput(body: HyperlineInvoiceInput): InvoiceInput {
  const { number, payment_method_strategy, settled_at, status, line_items, ...ours } = body;
  if (settled_at !== undefined && status !== 'paid') throw new RuleViolation('settled_at_without_payment', '`settled_at` is only taken with status `paid`.');
  if (status === 'paid' && body.type === 'document') throw new RuleViolation('document_not_payable', 'A document is never paid: status `paid` needs type `invoice`.');
  if (payment_method_strategy === 'external' && ours.collection_method === 'automatic') {
    throw new RuleViolation('conflicting_members', '`payment_method_strategy: external` means collection_method `manual`, not `automatic`.');
  }
  return {
    ...ours,
    ...(status && { status: status === 'paid' ? 'to_pay' : status }),
    ...(line_items && { line_items: line_items.map(ourLine) }),
    ...(number !== undefined && { reference: oneOf(ours.reference ?? undefined, number, 'reference and number') }),
    ...(payment_method_strategy === 'external' && { collection_method: 'manual' as const }),
  };
}

/**
 * Creates the invoice; with Hyperline's status `paid`, it is issued (to_pay) and then paid in full by a payment
 * recorded outside the service at `settled_at`: the same two steps a user would take, so numbering, events and
 * accounting stay those of any paid invoice.
 */
export async function createHyperlineInvoice(ctx: Ctx, body: HyperlineInvoiceInput): Promise<Invoice> {
  const created = await createInvoice(ctx, toInvoiceInput(body));
  if (body.status !== 'paid' || created.amount_due === 0) return created;
  return recordPayment(ctx, created.id, {
    amount: created.amount_due,
    payment_method_type: body.payment_method_strategy === 'external' ? 'external' : 'other',
    ...(body.settled_at && { process_at: body.settled_at }),
  });
}
