import { downloadInvoice, type DownloadFormat } from '../../shared/domain/invoices/pdf/download';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/downloadInvoice.js';

export const handler = httpHandler<unknown, { format?: DownloadFormat }>(route, ({ ctx, path, query }) => downloadInvoice(ctx, path.id!, query.format));
