import { toInvoice, type InvoiceItem } from '../../shared/domain/invoices/invoice';
import { lastCreated } from '../../shared/http/idempotency';
import { createCreditNote, type CreditNoteInput } from '../../shared/domain/invoices/credit-notes';
import { getInvoice } from '../../shared/domain/invoices/read';
import { refundCreditNote } from '../../shared/domain/payments/stripe/refunds';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createCreditNote.js';

/** A refund of money paid through Stripe is asked of Stripe once the credit note is written (docs/payments.md, "Refunds"). */
export const handler = httpHandler<CreditNoteInput>(
  route,
  async ({ ctx, path, body }) => {
    const note = await createCreditNote(ctx, path.id!, body);
    return refundCreditNote(ctx, note, () => getInvoice(ctx, note.id));
  },
  async (_input, created) => toInvoice(await lastCreated<InvoiceItem>(created, 'invoice')),
);
