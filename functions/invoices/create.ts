import { createInvoice, type InvoiceInput } from '../../shared/domain/invoices/create';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createInvoice.js';

export const handler = httpHandler<InvoiceInput>(route, ({ ctx, body }) => createInvoice(ctx, body));
