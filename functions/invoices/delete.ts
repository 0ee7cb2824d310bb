import { deleteInvoice } from '../../shared/domain/invoices/status';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/deleteInvoice.js';

export const handler = httpHandler(route, ({ ctx, path }) => deleteInvoice(ctx, path.id!));
