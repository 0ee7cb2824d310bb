import { getInvoice } from '../../shared/domain/invoices/read';
import { markUncollectible } from '../../shared/domain/invoices/status';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/markInvoiceUncollectible.js';

export const handler = httpHandler(
  route,
  ({ ctx, path }) => markUncollectible(ctx, path.id!),
  ({ ctx, path }) => getInvoice(ctx, path.id!),
);
