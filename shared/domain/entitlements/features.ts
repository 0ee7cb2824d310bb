import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem, putIfUnchanged, retryOnRace } from '../../db/items';
import { collectionKey } from '../../db/keys';
import { counterUpdate } from '../../db/pagination';
import { queryItems } from '../../db/query';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { getAggregator } from '../metering/aggregator-read';
import { FEATURES, FEATURE_ITEM_TYPE, MAX_FEATURES, featureKey, featureNotFound, featuresPartition, toFeature, valueTypeOf, type Feature, type FeatureItem, type FeatureType, type FeatureValue, type FeatureValueType } from './feature';

export interface FeatureCreateInput {
  code: string;
  name: string;
  type?: FeatureType;
  aggregator_id?: string | null;
  /** Hyperline's members (docs/hyperline.md). */
  value_type?: FeatureValueType;
  default_value?: FeatureValue;
  description?: string | null;
}

/** Our type from Hyperline's `value_type` when `type` is left out; both given must agree (422 otherwise). */
function featureType(input: FeatureCreateInput): FeatureType {
  const type = input.type ?? (input.value_type === 'number' ? 'limit' : 'boolean');
  if (input.value_type && valueTypeOf(type) !== input.value_type) {
    throw new RuleViolation('conflicting_members', `type '${type}' and value_type '${input.value_type}' disagree: a boolean feature has value_type boolean, a limit or metered one number.`);
  }
  const none = type === 'boolean' ? false : 0;
  if (input.default_value !== undefined && input.default_value !== none) {
    throw new RuleViolation('default_value_not_supported', `Without a grant a customer has ${String(none)} of a ${type} feature here; default_value can only be ${String(none)}.`);
  }
  return type;
}

/** A feature's code, claimed once per workspace (`WS#<ws>#FEATURE_CODES` / code): two features never share one. */
const codeClaimKey = (ctx: Ctx, code: string) => collectionKey(ctx, 'FEATURE_CODES', code);

/** A live feature of the workspace (strongly consistent), or 404. */
export async function findFeatureItem(ctx: Ctx, id: string): Promise<FeatureItem> {
  const item = await getItem<FeatureItem>(featureKey(ctx, id), true);
  if (!item || item.deleted_at) throw featureNotFound(id);
  return item;
}

/** Every live feature, by id (one Query of the workspace's feature partition). */
export async function featureItems(ctx: Ctx): Promise<Map<string, FeatureItem>> {
  const { items } = await queryItems<FeatureItem>({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': featuresPartition(ctx) }, ConsistentRead: true });
  return new Map(items.filter((f) => !f.deleted_at).map((f) => [f.id, f]));
}

/**
 * One transaction: the feature, its code's claim (422 `feature_code_taken` when another feature has it) and the
 * workspace's count of live features (422 `feature_limit_reached` past MAX_FEATURES). A `metered` feature names a live
 * aggregator (its allowance counts that aggregator's usage); the other types take none.
 */
export async function createFeature(ctx: Ctx, input: FeatureCreateInput): Promise<Feature> {
  const type = featureType(input);
  const metered = type === 'metered';
  if (metered !== !!input.aggregator_id) {
    throw new RuleViolation('feature_aggregator', metered ? 'A metered feature needs aggregator_id (the usage its allowance counts).' : `A ${type} feature takes no aggregator_id.`);
  }
  if (metered) await getAggregator(ctx, input.aggregator_id!);
  const id = newId('feat');
  const now = ctx.clock.now().toISOString();
  const item: FeatureItem = {
    ...featureKey(ctx, id), _type: FEATURE_ITEM_TYPE, _version: 0, id, code: input.code, name: input.name, type,
    aggregator_id: input.aggregator_id ?? null, description: input.description ?? null, created_at: now, updated_at: now, deleted_at: null,
  };
  await retryOnRace(async () => {
    try {
      await transactWrite([
        { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: tableName(), Item: { ...codeClaimKey(ctx, input.code), feature_id: id }, ConditionExpression: 'attribute_not_exists(pk)' } },
        counterUpdate(ctx, FEATURES, 1, MAX_FEATURES),
      ]);
    } catch (error) {
      if (error instanceof ConditionFailed && error.index === 1) throw new RuleViolation('feature_code_taken', `Another feature has the code '${input.code}'.`);
      if (error instanceof ConditionFailed && error.index === 2) throw new RuleViolation('feature_limit_reached', `A workspace has at most ${MAX_FEATURES} features.`);
      throw error;
    }
  });
  return toFeature(item);
}

/** Renames a feature; its code, type and aggregator are what grants and overrides rely on, so they never change. */
export const updateFeature = (ctx: Ctx, id: string, input: { name?: string }): Promise<Feature> =>
  retryOnRace(async () => {
    const current = await findFeatureItem(ctx, id);
    return toFeature(await putIfUnchanged({ ...current, name: input.name ?? current.name, updated_at: ctx.clock.now().toISOString() }, current._version));
  });

export const readFeature = async (ctx: Ctx, id: string): Promise<Feature> => toFeature(await findFeatureItem(ctx, id));

/** Every live feature, oldest first; the total is exact (at most MAX_FEATURES). */
export async function listFeatures(ctx: Ctx, query: { take: number; skip: number }) {
  const items = [...(await featureItems(ctx)).values()];
  const data = items.slice(query.skip, query.skip + query.take).map(toFeature);
  return { meta: { total: items.length, taken: data.length, skipped: query.skip }, data };
}
