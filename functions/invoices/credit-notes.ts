import { toInvoice, type InvoiceItem } from '../../shared/domain/invoices/invoice';
import { lastCreated } from '../../shared/http/idempotency';
import { createCreditNote, type CreditNoteInput } from '../../shared/domain/invoices/credit-notes';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createCreditNote.js';

export const handler = httpHandler<CreditNoteInput>(
  route,
  ({ ctx, path, body }) => createCreditNote(ctx, path.id!, body),
  async (_input, created) => toInvoice(await lastCreated<InvoiceItem>(created, 'invoice')),
);
