import { listInvoices } from '../../shared/domain/invoices/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listInvoices.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listInvoices(ctx, query));
