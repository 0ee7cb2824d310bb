import { httpHandler } from '../../shared/http/handler';
import { listEvents, type EventListQuery } from '../../shared/domain/metering/list-events';
import { route } from '../../shared/schemas/generated/listEvents.js';

export const handler = httpHandler<unknown, EventListQuery>(route, ({ ctx, query }) => listEvents(ctx, query));
