import { FEATURE_TYPES, FEATURE_VALUE_TYPES } from '../domain/entitlements/feature';
import { MIGRATION_EFFECTIVE, MIGRATION_PRORATION } from '../domain/plans/migration';
import { currency, enumOf, id, name, nullable, object, out, requireAll, text, type Schema } from './common';
import { pagingQuery } from './list-query';

const productInput = object(
  { product_id: id, price_configuration_id: id, quantity: { type: 'integer', minimum: 0, maximum: 1_000_000_000 } },
  ['product_id', 'price_configuration_id', 'quantity'],
);
const featureValue = { anyOf: [{ type: 'boolean' }, { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }] };
const grantInput = object({ feature_id: id, value: { ...featureValue, description: 'true/false for a boolean feature; a whole number for a limit or a metered allowance.' } }, ['feature_id', 'value']);

/** `products` first: the route matrix sends a wrong type for the first member and expects a 400. */
const versionMembers = {
  products: { type: 'array', minItems: 1, maxItems: 50, items: productInput, description: 'What a subscription to this version gets, as a subscription takes them.' },
  features: { type: 'array', maxItems: 100, items: grantInput, description: 'The features this version grants (docs/entitlements.md).' },
};

export const planCreateBody = object({ ...versionMembers, name, description: nullable(text(2_000)), currency }, ['products', 'name', 'currency']);
export const planVersionCreateBody = object(versionMembers, ['products']);
export const planUpdateBody = object({ name, description: nullable(text(2_000)) });
export const planListQuery = { type: 'object', additionalProperties: false, properties: { ...pagingQuery } };

export const migrationBody = object(
  {
    to_version_id: { ...id, description: 'The version the subscriptions move to.' },
    from_version_id: { ...nullable(id), description: 'Only the subscriptions on this version (default: on any other version of the plan).' },
    subscription_ids: { ...nullable({ type: 'array', minItems: 1, maxItems: 1_000, items: id }), description: 'Only these subscriptions (default: all of the plan).' },
    effective: { type: 'string', enum: MIGRATION_EFFECTIVE, description: 'next_period (default): each is billed on its old version until its next billing date; now: at once.' },
    proration: { type: 'string', enum: MIGRATION_PRORATION, description: 'A migration now: prorate (default: the rest of the period is invoiced at once) or none.' },
  },
  ['to_version_id'],
);

const productOut = { type: 'object', properties: { product_id: out.string, price_configuration_id: out.string, quantity: out.integer } };
const grantOut = { type: 'object', properties: { feature_id: out.string, value: { type: ['boolean', 'integer'] } } };

export const planVersionResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: out.string, plan_id: out.string, version: out.integer, currency: out.string,
    products: { type: 'array', items: productOut }, features: { type: 'array', items: grantOut }, created_at: out.dateTime,
  },
});

export const planResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: out.string, name: out.string, description: out.nullableString, currency: out.string,
    latest_version: planVersionResource,
    versions: { type: 'array', items: { type: 'object', properties: { id: out.string, version: out.integer, created_at: out.dateTime } } },
    created_at: out.dateTime, updated_at: out.dateTime,
  },
});

export const planMigrationResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: out.string, plan_id: out.string, from_version_id: out.nullableString, to_version_id: out.string,
    subscription_ids: { type: ['array', 'null'], items: out.string },
    effective: enumOf(MIGRATION_EFFECTIVE), proration: enumOf(MIGRATION_PRORATION),
    status: { ...enumOf(['pending', 'running', 'completed']), description: 'pending until its first page is worked; completed once every subscription was considered.' },
    migrated: out.integer, skipped: { ...out.integer, description: 'Not moved: cancelled, on another version, or already there.' }, failed: out.integer,
    failures: { type: 'array', description: 'The first 20 failures (a subscription the change refused).', items: { type: 'object', properties: { subscription_id: out.string, code: out.string, message: out.string } } },
    created_at: out.dateTime, updated_at: out.dateTime, completed_at: out.nullableDateTime,
  },
});

export const migrationPreviewResource: Schema = requireAll({
  type: 'object',
  properties: {
    to_version_id: out.string, effective: enumOf(MIGRATION_EFFECTIVE), proration: enumOf(MIGRATION_PRORATION),
    examined: { ...out.integer, description: 'Subscriptions of the plan examined (the first 1,000).' },
    complete: { ...out.boolean, description: 'Whether every subscription of the plan was examined.' },
    migrating: { ...out.integer, description: 'Of those examined, how many would move.' },
    subscriptions: {
      type: 'array',
      description: 'The first 100 that would move.',
      items: {
        type: 'object',
        properties: {
          subscription_id: out.string, customer_id: out.string, plan_version_id: out.nullableString,
          effective_at: { ...out.dateTime, description: 'Now, or its next billing date (next_period).' },
          current_period_amount: { ...out.amount, description: 'What a period bills now (recurring products at their quantities, excluding tax, coupons and usage).' },
          new_period_amount: { ...out.amount, description: 'The same on the new version.' },
          proration_charge: { ...out.amount, description: 'A migration now with proration: what is invoiced for the rest of the period.' },
          proration_credit: { ...out.amount, description: 'And credited for the unused time already billed.' },
        },
      },
    },
  },
});

export const featureCreateBody = object(
  {
    code: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[a-z0-9_.:-]+$', description: 'The key an application checks (`sso`, `seats`): lowercase letters, digits, `_ . : -`; unique.' },
    name,
    type: { type: 'string', enum: FEATURE_TYPES, description: 'Default: from `value_type` (`number`: limit), else boolean.' },
    aggregator_id: { ...nullable(id), description: 'metered only: the aggregator whose usage of each billing period its allowance counts.' },
    value_type: { type: 'string', enum: FEATURE_VALUE_TYPES, description: "Hyperline's: `boolean` (our boolean) or `number` (our limit, or metered with `type`)." },
    default_value: { ...featureValue, description: "Hyperline's: what applies without a grant. Here that is always false or 0 (422 `default_value_not_supported` otherwise)." },
    description: nullable(text(1000)),
  },
  ['code', 'name'],
);
export const featureUpdateBody = object({ name });
export const featureListQuery = planListQuery;

export const featureResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: out.string, code: out.string, name: out.string, type: enumOf(FEATURE_TYPES), aggregator_id: out.nullableString, created_at: out.dateTime, updated_at: out.dateTime,
    // Hyperline's members beside ours.
    description: out.nullableString, value_type: enumOf(FEATURE_VALUE_TYPES), default_value: featureValue,
    resolution_strategy: { type: 'null', description: "Hyperline's; null here: grants combine as docs/entitlements.md says (the stronger value wins)." },
    status: enumOf(['active']), archived_at: { type: 'null', description: 'Features are not archived here.' },
  },
});

export const entitlementOverrideBody = object({ value: { ...featureValue, description: 'Replaces what the plan grants: true/false, or a whole number.' } }, ['value']);

export const entitlementPath = {
  type: 'object', additionalProperties: false, required: ['id', 'featureId'], properties: { id, featureId: id },
};

const entitlementOut = {
  type: 'object',
  properties: {
    feature_id: out.string, code: out.string, name: out.string, type: enumOf(FEATURE_TYPES),
    value: { type: ['boolean', 'integer'], description: 'The value in force: the override, else the highest any active subscription grants.' },
    source: { ...enumOf(['plan', 'override']), description: 'Where the value comes from.' },
    subscription_id: { ...out.nullableString, description: 'The subscription whose plan version grants it (null for an override).' },
    usage: {
      type: ['object', 'null'],
      description: 'metered only: the usage of the current billing period so far and what is left of the allowance.',
      properties: {
        aggregator_id: out.string, used: out.number, remaining: out.number, period_starts_at: out.dateTime, period_ends_at: out.dateTime,
      },
    },
  },
};

export const entitlementsResource: Schema = requireAll({
  type: 'object',
  properties: {
    customer_id: out.string,
    entitlements: { type: 'array', items: entitlementOut },
    updated_at: out.nullableDateTime,
  },
});
