import { downloadReceipt } from '../../shared/domain/invoices/pdf/receipt-download';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/downloadInvoiceReceipt.js';

export const handler = httpHandler(route, ({ ctx, path }) => downloadReceipt(ctx, path.id!, path.transactionId!));
