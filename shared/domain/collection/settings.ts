import { InvalidRequest } from '../../errors';

/** How an invoice is paid: `automatic` (collected from the wallet, then the default payment method) or `manual`. */
export const COLLECTION_METHODS = ['automatic', 'manual'] as const;
export type CollectionMethod = (typeof COLLECTION_METHODS)[number];

/** What runs once the last retry of a failed collection failed too. */
export const DUNNING_FINAL_ACTIONS = ['mark_uncollectible', 'cancel_subscription', 'none'] as const;
export type DunningFinalAction = (typeof DUNNING_FINAL_ACTIONS)[number];

/** One retry of the schedule: that long after the first failed attempt (docs/collection.md). */
export interface RetryDelay {
  period: 'hours' | 'days';
  count: number;
}

/** Stripe's Smart Retries shape, fixed: 2 h, 12 h, 24 h, 3 days and 7 days after the first failure. */
export const DEFAULT_RETRY_SCHEDULE: readonly RetryDelay[] = [
  { period: 'hours', count: 2 }, { period: 'hours', count: 12 }, { period: 'hours', count: 24 }, { period: 'days', count: 3 }, { period: 'days', count: 7 },
];
export const DEFAULT_FINAL_ACTION: DunningFinalAction = 'none';

/** At most 10 retries, the last at most 60 days after the first failure. */
export const MAX_RETRIES = 10;
const MAX_RETRY_MS = 60 * 86_400_000;

const HOUR_MS = 3_600_000;
export const delayMs = (d: RetryDelay): number => d.count * (d.period === 'days' ? 24 * HOUR_MS : HOUR_MS);

/** The invoicing entity's collection settings, as stored (absent on entities that never set them: the defaults). */
export interface EntityCollectionSettings {
  dunning_retry_schedule?: RetryDelay[];
  dunning_final_action?: DunningFinalAction;
  wallet_collection_enabled?: boolean;
}

export const collectionSettingsOf = (entity: EntityCollectionSettings) => ({
  dunning_retry_schedule: entity.dunning_retry_schedule ?? [...DEFAULT_RETRY_SCHEDULE],
  dunning_final_action: entity.dunning_final_action ?? DEFAULT_FINAL_ACTION,
  wallet_collection_enabled: entity.wallet_collection_enabled ?? true,
});

/**
 * The schedule's rule beyond its JSON Schema (shape, count ≤ 10): each retry strictly later than the one before it,
 * none later than 60 days after the first failure. A 400 on `body.dunning_retry_schedule` otherwise.
 */
export function assertRetrySchedule(schedule: RetryDelay[] | undefined): void {
  if (!schedule) return;
  let previous = 0;
  schedule.forEach((d, i) => {
    const ms = delayMs(d);
    const path = `body.dunning_retry_schedule.${i}`;
    if (ms <= previous) throw new InvalidRequest('Each retry of dunning_retry_schedule must come strictly after the one before it.', [{ path, message: 'is not after the previous retry' }]);
    if (ms > MAX_RETRY_MS) throw new InvalidRequest('A retry of dunning_retry_schedule is at most 60 days after the first failure.', [{ path, message: 'is more than 60 days' }]);
    previous = ms;
  });
}
