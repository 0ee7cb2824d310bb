import { httpHandler } from '../../shared/http/handler';
import { ingestOne } from '../../shared/domain/metering/ingest-request';
import type { EventInput } from '../../shared/domain/metering/ingest';
import { route } from '../../shared/schemas/generated/ingestEvent.js';

export const handler = httpHandler<EventInput, { with_price_calculation: boolean }>(route, ({ ctx, body, query }) => ingestOne(ctx, body, query));
