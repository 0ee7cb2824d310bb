import { getInvoicingEntity } from '../../shared/domain/invoicing-entities/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getInvoicingEntity.js';

export const handler = httpHandler(route, ({ ctx, path }) => getInvoicingEntity(ctx, path.id!));
