import type { EventDraft } from '../events/catalog';
import { changedPublicly } from '../events/changed';
import { toAggregator, type AggregatorItem } from './aggregator';

/** Aggregator changes → `aggregator.created`, `aggregator.deleted` (soft delete), `aggregator.updated` for a visible edit. */
export function aggregatorEvents(before: AggregatorItem | undefined, after: AggregatorItem | undefined): EventDraft[] {
  if (!after) return [];
  const data = toAggregator(after);
  if (!before) return [{ type: 'aggregator.created', data }];
  if (before.deleted_at) return [];
  if (after.deleted_at) return [{ type: 'aggregator.deleted', data }];
  return changedPublicly(toAggregator(before), data) ? [{ type: 'aggregator.updated', data }] : [];
}
