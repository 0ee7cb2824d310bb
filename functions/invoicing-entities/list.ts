import { listInvoicingEntities } from '../../shared/domain/invoicing-entities/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listInvoicingEntities.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listInvoicingEntities(ctx, query));
