import type { Ctx } from '../context';
import type { CreatedRef } from '../db/effect-claim';
import { findCustomerItem } from '../domain/customers/read';
import { findInvoiceItem } from '../domain/invoices/read';
import { findEntityItem } from '../domain/invoicing-entities/read';
import { RuleViolation } from '../errors';
import { lastCreated } from '../http/idempotency';
import { newId } from '../ids';
import { insertEmail, newEmail, recipientsOf } from './create';
import type { EmailItem } from './email-item';
import { markInvoiceEmail } from './invoice-email-status';
import { toEmail, type Email } from './log';
import { queueEmailAttempt } from './schedule';
import { assertAddressed, assertEmailsOn } from './sendable';

/**
 * `POST /v1/invoices/{id}/send`: the invoice emailed again, as a new email of its own (its own id and Message-ID),
 * to the customer's addressees as they are now: the invoice to pay, or its receipt once paid. Refused (422, nothing
 * written) when no email could go out: emails off, an invoice not issued (draft) or not an invoice, no recipient, a
 * recipient that bounced or complained, no sender. The entity's `email_settings` do not apply: the caller asked for this one.
 */
export async function resendInvoice(ctx: Ctx, invoiceId: string): Promise<Email> {
  const invoice = await findInvoiceItem(ctx, invoiceId);
  assertEmailsOn();
  if (invoice.type !== 'invoice') throw new RuleViolation('not_an_invoice', `Only invoices are emailed; ${invoiceId} is a ${invoice.type}.`);
  if (invoice.number === null) throw new RuleViolation('invoice_not_issued', `The invoice ${invoiceId} is a ${invoice.status} invoice: validate it before sending it.`);
  const [customer, entity] = await Promise.all([findCustomerItem(ctx, invoice.customer_id), findEntityItem(ctx, invoice.seller.id)]);
  assertAddressed(customer, entity);
  const email = newEmail(ctx, {
    id: newId('eml'),
    kind: invoice.status === 'paid' ? 'invoice_paid' : 'invoice_issued',
    event_id: null,
    invoice_id: invoice.id,
    customer_id: customer.id,
    ...recipientsOf(customer),
    skipped_reason: null,
    created_at: ctx.clock.now().toISOString(),
  });
  await insertEmail(ctx, email);
  await markInvoiceEmail(ctx, email);
  await queueEmailAttempt(ctx, email);
  return toEmail(email);
}

/**
 * The answer to a retry whose first request wrote the email and died before answering: that email as it is now,
 * queued again if it still is (a duplicate job is a no-op: the email's attempt counter tells), since the first
 * request may have died before queueing it.
 */
export async function replayResend(ctx: Ctx, created: CreatedRef[]): Promise<Email> {
  const email = await lastCreated<EmailItem>(created, 'email');
  if (email.status === 'queued') await queueEmailAttempt(ctx, email);
  return toEmail(email);
}
