import { updateInvoice, type InvoicePatch } from '../../shared/domain/invoices/update';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updateInvoice.js';

export const handler = httpHandler<InvoicePatch>(route, ({ ctx, path, body }) => updateInvoice(ctx, path.id!, body));
