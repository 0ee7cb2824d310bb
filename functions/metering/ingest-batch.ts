import { httpHandler } from '../../shared/http/handler';
import { ingestBatch } from '../../shared/domain/metering/ingest-request';
import { route as single } from '../../shared/schemas/generated/ingestEvent.js';
import { route } from '../../shared/schemas/generated/ingestEventBatch.js';

/** Each element is checked with the single-event route's own validator, so both routes accept exactly the same events. */
export const handler = httpHandler<unknown[], { with_price_calculation: boolean }>(route, ({ ctx, body, query, answerBy }) => ingestBatch(ctx, body, single.validate.body!, query, answerBy));
