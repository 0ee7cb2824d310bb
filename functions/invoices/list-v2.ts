import { listInvoices } from '../../shared/domain/invoices/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listInvoicesV2.js';

/** Hyperline lists invoices at `/v2/invoices` too (docs/hyperline.md): the same list as `GET /v1/invoices`. */
export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listInvoices(ctx, query));
