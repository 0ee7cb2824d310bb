import { createInvoicingEntity, type CreateEntityInput } from '../../shared/domain/invoicing-entities/create';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createInvoicingEntity.js';

export const handler = httpHandler<CreateEntityInput>(route, ({ ctx, body }) => createInvoicingEntity(ctx, body));
