import { createHyperlineInvoice, type HyperlineInvoiceInput } from '../../shared/domain/hyperline/invoice-request';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createInvoice.js';

export const handler = httpHandler<HyperlineInvoiceInput>(route, ({ ctx, body }) => createHyperlineInvoice(ctx, body));
