/**
 * The bounds and formats that the request schemas state and the domain checks again at run time (an event's size,
 * an aggregator's filters, a usage period, the scopes, a promotion code's letters). Plain values, apart from the
 * schemas, which are built when their module loads: a function needing a bound does not build its area's schemas.
 */

/** The documented bounds of an event (docs/metering.md). */
export const EVENT_BOUNDS = {
  recordId: 255,
  eventType: 100,
  properties: 50,
  propertyName: 100,
  stringValue: 1_000,
  arrayValues: 100,
  /** The whole event, as JSON. */
  bytes: 8_192,
  batch: 5_000,
} as const;

/** The longest period one usage read covers (`from` to `to`). */
export const MAX_USAGE_DAYS = 400;

/** The bounds of an aggregator's definition (docs/metering.md, "Aggregators"). */
export const AGGREGATOR_BOUNDS = {
  name: 200,
  unitName: 100,
  description: 1000,
  /** Event types and property names: at most this many characters of PATTERNS.eventName. */
  eventName: 100,
  filters: 20,
  /** Values of one `in` / `not_in` filter. */
  filterValues: 100,
  /** Characters of one string value. */
  stringValue: 255,
  /** Decimals of a number value (the numbers themselves stay within ±(2^53 − 1)). */
  numberDecimals: 9,
  /** Bytes of the filters as JSON: 500 aggregators of a workspace stay a few Query pages for the usage pipeline. */
  filtersBytes: 8_192,
} as const;

/** The scopes a client may be granted (decisions.md, Authentication). */
export const OAUTH_SCOPES = ['read', 'write'] as const;

/** Letters, digits, `-` and `_`: case-insensitivity is then plain ASCII lower-casing, with no locale surprises. */
export const PROMOTION_CODE_PATTERN = '^[A-Za-z0-9_-]+$';
