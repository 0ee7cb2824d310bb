import { deleteInvoicingEntity } from '../../shared/domain/invoicing-entities/delete';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/deleteInvoicingEntity.js';

export const handler = httpHandler(route, ({ ctx, path }) => deleteInvoicingEntity(ctx, path.id!));
