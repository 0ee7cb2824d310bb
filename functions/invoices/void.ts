import { getInvoice } from '../../shared/domain/invoices/read';
import { voidInvoice } from '../../shared/domain/invoices/credit-notes';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/voidInvoice.js';

export const handler = httpHandler(
  route,
  ({ ctx, path }) => voidInvoice(ctx, path.id!),
  ({ ctx, path }) => getInvoice(ctx, path.id!),
);
