import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { putIfUnchanged, retryOnRace } from '../../db/items';
import { counterUpdate } from '../../db/pagination';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { newId } from '../../ids';
import { AGGREGATORS, AGGREGATOR_ITEM_TYPE, MAX_AGGREGATORS, aggregatorKey, toAggregator, type Aggregator, type AggregatorItem } from './aggregator';
import { aggregatorInUse, aggregatorLimitReached, definitionImmutable } from './aggregator-errors';
import { fromHyperlineBody, fromHyperlineCreateBody, type AggregatorCreateBody, type AggregatorUpdateBody } from './aggregator-hyperline';
import { assertNoErrors, changedDefinitionMembers, definitionErrors, filterErrors, normalizeFilter } from './aggregator-input';
import { noProductUsesCheck, productsNaming } from './aggregator-products';
import { findAggregatorItem } from './aggregator-read';

/**
 * Creates an aggregator: one transaction of the item and the workspace's count of live aggregators, which refuses the
 * one past MAX_AGGREGATORS (422 `aggregator_limit_reached`), however many creations race.
 */
export async function createAggregator(ctx: Ctx, body: AggregatorCreateBody): Promise<Aggregator> {
  const input = fromHyperlineCreateBody(body);
  assertNoErrors(definitionErrors(input));
  const id = newId('agg');
  const now = ctx.clock.now().toISOString();
  const item: AggregatorItem = {
    ...aggregatorKey(ctx, id),
    _type: AGGREGATOR_ITEM_TYPE,
    _version: 0,
    id,
    name: input.name,
    event_type: input.event_type,
    operation: input.operation,
    property: input.operation === 'count' ? null : input.property!,
    filters: (input.filters ?? []).map(normalizeFilter),
    unit_name: input.unit_name ?? null,
    description: input.description ?? null,
    custom_event_name: input.custom_event_name ?? null,
    exposed_event_keys: input.exposed_event_keys ?? [],
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  // Concurrent creations contend on the counter: a transaction conflict is retried, a full workspace is not.
  await retryOnRace(async () => {
    try {
      await transactWrite([
        { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
        counterUpdate(ctx, AGGREGATORS, 1, MAX_AGGREGATORS),
      ]);
    } catch (error) {
      if (error instanceof ConditionFailed && error.index === 1) throw aggregatorLimitReached();
      throw error;
    }
  });
  return toAggregator(item);
}

/**
 * Renames (`name`, `unit_name`, Hyperline's `description`, `custom_event_name`, `exposed_event_keys`; null clears). The definition may be repeated as it is, never changed (422
 * `aggregator_definition_immutable`). Conditioned on the version read; a lost race is retried.
 */
export async function updateAggregator(ctx: Ctx, id: string, body: AggregatorUpdateBody): Promise<Aggregator> {
  const input = fromHyperlineBody(body);
  assertNoErrors(filterErrors(input.filters));
  return retryOnRace(async () => {
    const current = await findAggregatorItem(ctx, id);
    const changed = changedDefinitionMembers(current, input);
    if (changed.length > 0) throw definitionImmutable(changed);
    const next: AggregatorItem = {
      ...current,
      name: input.name ?? current.name,
      unit_name: input.unit_name !== undefined ? input.unit_name : current.unit_name,
      description: input.description !== undefined ? input.description : (current.description ?? null),
      custom_event_name: input.custom_event_name !== undefined ? input.custom_event_name : (current.custom_event_name ?? null),
      exposed_event_keys: input.exposed_event_keys ?? current.exposed_event_keys ?? [],
      updated_at: ctx.clock.now().toISOString(),
    };
    return toAggregator(await putIfUnchanged(next, current._version));
  });
}

/**
 * Soft delete: `deleted_at` set (GET answers 404, the list and the usage pipeline skip it), the live count drops by
 * one, in one transaction that also checks that no product names it (409 `aggregator_in_use`).
 */
export async function deleteAggregator(ctx: Ctx, id: string): Promise<Aggregator> {
  return retryOnRace(async () => {
    const current = await findAggregatorItem(ctx, id);
    const now = ctx.clock.now().toISOString();
    try {
      await transactWrite([
        {
          Update: {
            TableName: tableName(),
            Key: aggregatorKey(ctx, id),
            UpdateExpression: 'SET deleted_at = :now, updated_at = :now, #v = #v + :one',
            ConditionExpression: '#v = :version',
            ExpressionAttributeNames: { '#v': '_version' },
            ExpressionAttributeValues: { ':now': now, ':one': 1, ':version': current._version },
          },
        },
        counterUpdate(ctx, AGGREGATORS, -1),
        noProductUsesCheck(ctx, id),
      ]);
    } catch (error) {
      if (error instanceof ConditionFailed && error.index === 2) throw aggregatorInUse(id, await productsNaming(ctx, id));
      throw error;
    }
    return toAggregator({ ...current, updated_at: now });
  });
}
