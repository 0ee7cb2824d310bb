import { getInvoice } from '../../shared/domain/invoices/read';
import { validateInvoice } from '../../shared/domain/invoices/status';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/validateInvoice.js';

export const handler = httpHandler(
  route,
  ({ ctx, path }) => validateInvoice(ctx, path.id!),
  ({ ctx, path }) => getInvoice(ctx, path.id!),
);
