import { getInvoice } from '../../shared/domain/invoices/read';
import { recordPayment, type PaymentInput } from '../../shared/domain/invoices/payments';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createInvoiceTransaction.js';

export const handler = httpHandler<PaymentInput>(
  route,
  ({ ctx, path, body }) => recordPayment(ctx, path.id!, body),
  ({ ctx, path }) => getInvoice(ctx, path.id!),
);
