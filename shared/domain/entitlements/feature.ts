import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { collectionKey, collectionPartition } from '../../db/keys';
import { NotFound } from '../../errors';

/**
 * A feature a customer may be entitled to (docs/entitlements.md): `boolean` (may use it or not), `limit` (up to a
 * number: seats, projects), or `metered` (an allowance of an aggregator's usage per billing period). All features of
 * a workspace sit in one partition (`WS#<ws>#FEATURES`), at most MAX_FEATURES.
 */
export const FEATURES = 'FEATURES';
export const FEATURE_ITEM_TYPE = 'feature';
export const MAX_FEATURES = 500;
export const FEATURE_TYPES = ['boolean', 'limit', 'metered'] as const;
export type FeatureType = (typeof FEATURE_TYPES)[number];
/** Hyperline's `value_type`: `boolean` is our boolean, `number` our limit or metered. */
export const FEATURE_VALUE_TYPES = ['boolean', 'number'] as const;
export type FeatureValueType = (typeof FEATURE_VALUE_TYPES)[number];
export const valueTypeOf = (type: FeatureType): FeatureValueType => (type === 'boolean' ? 'boolean' : 'number');

/** A grant's value: a boolean for a `boolean` feature, a whole number ≥ 0 for a limit or a metered allowance. */
export type FeatureValue = boolean | number;

export interface FeatureItem extends StoredItem {
  id: string;
  /** A stable key an application checks (`sso`, `seats`), unique in the workspace. */
  code: string;
  name: string;
  type: FeatureType;
  /** `metered` only: the aggregator whose usage the allowance counts. */
  aggregator_id: string | null;
  /** Absent on features created before it was taken. */
  description?: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export const featureKey = (ctx: Ctx, id: string) => collectionKey(ctx, FEATURES, id);
export const featuresPartition = (ctx: Ctx) => collectionPartition(ctx, FEATURES);
export const featureNotFound = (id: string) => new NotFound('feature', id);

export const toFeature = (f: FeatureItem) => ({
  id: f.id, code: f.code, name: f.name, type: f.type, aggregator_id: f.aggregator_id, created_at: f.created_at, updated_at: f.updated_at,
  // Hyperline's members: without a grant a customer has false or 0; grants combine by the stronger value; never archived.
  description: f.description ?? null, value_type: valueTypeOf(f.type), default_value: (f.type === 'boolean' ? false : 0) as FeatureValue,
  resolution_strategy: null, status: 'active' as const, archived_at: null,
});
export type Feature = ReturnType<typeof toFeature>;

/** Whether `value` fits a feature of `type`. */
export const valueFits = (type: FeatureType, value: unknown): value is FeatureValue =>
  type === 'boolean' ? typeof value === 'boolean' : Number.isSafeInteger(value) && (value as number) >= 0;

/** What a value of `type` must be, as an error says it. */
export const expectedValue = (type: FeatureType): string => (type === 'boolean' ? 'true or false' : 'a whole number, 0 or more');
