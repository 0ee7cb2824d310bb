import { getInvoice } from '../../shared/domain/invoices/read';
import { chargeInvoice } from '../../shared/domain/invoices/charge';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/chargeInvoice.js';

export const handler = httpHandler<{ payment_method_id?: string } | undefined>(
  route,
  ({ ctx, path, body }) => chargeInvoice(ctx, path.id!, body?.payment_method_id),
  ({ ctx, path }) => getInvoice(ctx, path.id!),
);
