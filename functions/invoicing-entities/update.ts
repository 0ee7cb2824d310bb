import type { EntityInput } from '../../shared/domain/invoicing-entities/invoicing-entity';
import { updateInvoicingEntity } from '../../shared/domain/invoicing-entities/update';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updateInvoicingEntity.js';

export const handler = httpHandler<EntityInput>(route, ({ ctx, path, body }) => updateInvoicingEntity(ctx, path.id!, body));
