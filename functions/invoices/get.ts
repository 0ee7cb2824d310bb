import { getInvoice } from '../../shared/domain/invoices/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getInvoice.js';

export const handler = httpHandler(route, ({ ctx, path }) => getInvoice(ctx, path.id!));
