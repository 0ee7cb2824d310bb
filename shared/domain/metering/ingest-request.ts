import type { Ctx } from '../../context';
import { RuleViolation, ServiceUnavailable } from '../../errors';
import type { ValidateFunction } from '../../http/route-meta';
import { toFieldErrors } from '../../http/validation-errors';
import { ingestEvents, type Checked, type EventInput, type IngestResult } from './ingest';
import { priceCalculator } from './price-calculation';
import type { PublicUsageEvent } from './usage-event';

export interface IngestionOptions {
  with_price_calculation: boolean;
}

const decorator = async (ctx: Ctx, options: IngestionOptions) => (options.with_price_calculation ? await priceCalculator(ctx) : undefined);

/** `POST /v1/events`: the event stored, or a 422 whose code says why not (503 when DynamoDB kept refusing it). */
export async function ingestOne(ctx: Ctx, event: EventInput, options: IngestionOptions): Promise<PublicUsageEvent> {
  const { created, failed } = await ingestEvents(ctx, [{ index: 0, event }], await decorator(ctx, options));
  const failure = failed[0];
  if (failure?.error.code === 'throttled') throw new ServiceUnavailable(failure.error.message);
  if (failure) throw new RuleViolation(failure.error.code, failure.error.message);
  return created[0]!;
}

/**
 * `POST /v1/events/batch`: every element checked with the single event's validator; one bad event rejects only itself.
 * Writing stops at `answerBy` (the invocation's time, less the answer's): what is left fails with `throttled`, to be
 * sent again, rather than the whole request being cut off by its timeout.
 */
export async function ingestBatch(ctx: Ctx, events: unknown[], validate: ValidateFunction, options: IngestionOptions, answerBy = Number.POSITIVE_INFINITY) {
  const checked: Checked[] = events.map((event, index) => {
    if (validate(event)) return { index, event: event as EventInput };
    const first = toFieldErrors('body', validate.errors ?? [])[0];
    const where = first ? `${first.path.replace(/^body/, `[${index}]`)} ${first.message}` : 'is not a valid event';
    return { index, event, error: { code: 'invalid_event', message: `Event ${where}.` } };
  });
  const result: IngestResult = await ingestEvents(ctx, checked, await decorator(ctx, options), answerBy);
  return { events_created: result.created, events_failed: result.failed };
}
