import { requireAll } from './common';
import { PRICE_TYPES, bpsTierSchema, feePriceSchema, packSchema, pricesSchemaFor, tierSchema } from './prices';

const withMembers = (schema: Schema, members: Record<string, Schema>): Schema => ({
  ...schema,
  required: [...Object.keys(members), ...(schema.required as string[])],
  properties: { ...members, ...(schema.properties as object) },
});
import { country, currency, id, metadata, name, nullable, object, text, type Schema } from './common';
import { listQuerySchema, pagingQuery } from './list-query';
import { PRODUCT_STATUSES, PRODUCT_TYPES, priceConfigurationFilters, productFilters } from './list-filters';

const RECURRING_PERIODS = ['days', 'weeks', 'months', 'years'];

const productMembers: Record<string, Schema> = {
  name,
  description: nullable(text(5000)),
  description_display_interval_dates: { type: 'boolean' },
  public_description: nullable(text(5000)),
  translations: nullable(metadata),
  properties: nullable(metadata),
  custom_properties: metadata,
  accounting: metadata,
  account_code: {
    ...nullable({ type: 'string', pattern: '^[0-9]{3,9}$' }),
    description: 'The revenue account its invoice lines are booked to in the accounting exports (digits, as FEC and DATEV charts have them); null: the default 706000.',
  },
  is_available_on_demand: { type: 'boolean' },
  is_available_on_subscription: { type: 'boolean' },
  aggregator_id: { ...nullable(id), description: 'The aggregator that meters the usage of a `dynamic` or `credit` product (others: null).' },
};

export const productUpdateBody = object(productMembers);

export const productListQuery = listQuerySchema(productFilters, { sortable: true });

const recurring = object({ period: { type: 'string', enum: RECURRING_PERIODS }, count: { type: 'integer', minimum: 1, maximum: 1000 } }, ['period', 'count']);
const billingInterval = { anyOf: [object({ period: { type: 'string', enum: ['once'] } }, ['period']), recurring] };
const commitmentInterval = { anyOf: [object({ period: { type: 'string', enum: ['all'] } }, ['period']), recurring] };

/** The prices must be of the configuration's type: one `if type … then prices …` per type. */
const pricesMatchType = PRICE_TYPES.map((type) => ({
  if: { properties: { type: { const: type } }, required: ['type'] },
  then: { properties: { prices: pricesSchemaFor(type) } },
}));

const priceConfigurationMembers: Record<string, Schema> = {
  price_book_id: nullable(id),
  currency,
  country: nullable(country),
  plan_id: nullable(id),
  billing_interval: billingInterval,
  commitment_interval: commitmentInterval,
  type: { type: 'string', enum: PRICE_TYPES },
  // Each price's shape is the configuration type's: the `allOf` rules below (pricesMatchType) check it.
  prices: { type: 'array', minItems: 1, items: { type: 'object', additionalProperties: true } },
};

/** A configuration given inside `POST /v1/products` (its product is the one being created). */
const inlinePriceConfiguration = { ...object(priceConfigurationMembers, ['currency', 'type', 'prices']), allOf: pricesMatchType };

export const priceConfigurationCreateBody = {
  ...object({ product_id: id, ...priceConfigurationMembers }, ['product_id', 'currency', 'type', 'prices']),
  allOf: pricesMatchType,
};

/** At most this many configurations inline: with their prices they must fit one transaction (100 items). */
export const MAX_INLINE_CONFIGURATIONS = 10;

export const productCreateBody = object(
  {
    ...productMembers,
    type: { type: 'string', enum: PRODUCT_TYPES },
    price_configurations: { type: 'array', maxItems: MAX_INLINE_CONFIGURATIONS, items: inlinePriceConfiguration },
  },
  ['name', 'type'],
);

/** The stored type is known only to the domain, which checks the prices against it. */
const anyPrices = { anyOf: PRICE_TYPES.map((type) => pricesSchemaFor(type)) };
/** `PUT …/prices`: `{prices}`, or the bare array Hyperline sends. */
export const pricesUpdateBody: Schema = { anyOf: [object({ prices: anyPrices }, ['prices']), anyPrices] };

/** `POST …/prices` (Hyperline's way to update them): the same two forms. */
export const pricesPostBody: Schema = pricesUpdateBody;

export const simulateBody = object(
  { quantity: { type: 'integer', minimum: 0, maximum: 1_000_000_000 }, amount: { type: 'integer', minimum: 0, maximum: 1_000_000_000_000 } },
  ['quantity'],
);

/** The spec's filters: exact, negated, null tests and text matches on `product_id` and `price_book_id`. */
export const priceConfigurationListQuery = listQuerySchema(priceConfigurationFilters);

export const priceBookCreateBody = object({ name, description: nullable(text(5000)) }, ['name']);
export const priceBookListQuery = { type: 'object', additionalProperties: false, properties: { ...pagingQuery } };

const priceShapes = [feePriceSchema, tierSchema, bpsTierSchema, packSchema];

/** A stored price: its input shape (by the configuration's `type`) plus its id. */
const storedPrice = { anyOf: priceShapes.map((schema) => withMembers(schema, { id: { type: 'string' } })) };

/** A price embedded in its product: also its configuration's `type`. */
const embeddedPrice = { anyOf: priceShapes.map((schema) => withMembers(schema, { id: { type: 'string' }, type: { type: 'string', enum: PRICE_TYPES } })) };

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
/** `{period: once|all}` or `{period: days|weeks|months|years, count}`. */
const interval = {
  type: 'object',
  required: ['period'],
  properties: { period: { type: 'string', enum: ['once', 'all', ...RECURRING_PERIODS] }, count: { type: 'integer', description: 'Absent for `once` and `all`.' } },
};

const configurationMembers = (prices: Schema): Record<string, Schema> => ({
  id: str, product_id: str, price_book_id: nstr, status: { type: 'string', enum: ['active', 'archived'] }, currency: str, country: nstr,
  plan_id: nstr, billing_interval: interval, commitment_interval: interval, type: { type: 'string', enum: PRICE_TYPES },
  prices: { type: 'array', items: prices }, created_at: str, updated_at: str, archived_at: nstr,
});

export const priceConfigurationResource: Schema = requireAll({ type: 'object', properties: configurationMembers(storedPrice) });

/** A price configuration as its product embeds it: without `product_id`, its prices carrying `type`. */
const { product_id: _productId, ...embeddedMembers } = configurationMembers(embeddedPrice);
export const embeddedPriceConfigurationResource: Schema = requireAll({ type: 'object', properties: embeddedMembers });

export const productResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: str, name: str, status: { type: 'string', enum: PRODUCT_STATUSES }, type: { type: 'string', enum: PRODUCT_TYPES }, description: nstr,
    description_display_interval_dates: { type: 'boolean' }, public_description: nstr, translations: { type: ['object', 'null'], additionalProperties: true },
    properties: { type: ['object', 'null'], additionalProperties: true }, custom_properties: { type: 'object', additionalProperties: true }, accounting: { type: 'object', additionalProperties: true },
    account_code: nstr, is_available_on_demand: { type: 'boolean' }, is_available_on_subscription: { type: 'boolean' }, aggregator_id: nstr,
    price_configurations: { type: 'array', items: embeddedPriceConfigurationResource }, created_at: str, updated_at: str,
  },
});

export const priceBookResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: str, name: str, description: nstr,
    user_role_ids: { type: 'array', items: str, maxItems: 0, description: "Hyperline's: the user roles that may use the book; always empty here (no user roles)." },
    created_at: str, updated_at: str,
  },
});

export const simulationResource: Schema = requireAll({
  type: 'object',
  properties: {
    price_configuration_id: str, currency: str, quantity: { type: 'integer' }, amount: { type: 'integer' },
    tiers: { type: 'array', items: { type: 'object', properties: { from: { type: 'integer' }, to: { type: ['integer', 'null'] }, units: { type: 'integer' }, amount: { type: 'integer' } } } },
  },
});
