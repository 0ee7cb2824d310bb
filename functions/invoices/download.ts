import { downloadInvoicePdf } from '../../shared/domain/invoices/pdf/download';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/downloadInvoice.js';

export const handler = httpHandler(route, ({ ctx, path }) => downloadInvoicePdf(ctx, path.id!));
