/**
 * String formats as patterns: the precompiled validators stay self-contained (no runtime imports), and the
 * error mapper turns a failed pattern back into words through FORMAT_NAMES.
 */
const DATE = '\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])';
const TIME = '([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(\\.\\d{1,9})?';
const OFFSET = '(Z|[+-]([01]\\d|2[0-3]):[0-5]\\d)';

export const PATTERNS = {
  date: `^${DATE}$`,
  dateTime: `^${DATE}T${TIME}${OFFSET}$`,
  dateOrDateTime: `^${DATE}(T${TIME}${OFFSET})?$`,
  email: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
  uri: '^[a-zA-Z][a-zA-Z0-9+.-]*:[^\\s]+$',
  hexColor: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$',
  decimalInteger: '^-?[0-9]{1,16}$',
  /** Event types and record property names (metering): letters, digits and `_ . : -`, starting with a letter, digit or `_`. */
  eventName: '^[A-Za-z0-9_][A-Za-z0-9_.:-]*$',
  numberPattern: '^(?:[^{}]|\\{(?:number|YYYY|MM|DD)\\})*\\{number\\}(?:[^{}]|\\{(?:number|YYYY|MM|DD)\\})*$',
} as const;

export const FORMAT_NAMES: Record<string, string> = {
  [PATTERNS.date]: 'a date (YYYY-MM-DD)',
  [PATTERNS.dateTime]: 'an ISO 8601 date-time (2026-01-31T12:00:00.000Z)',
  [PATTERNS.dateOrDateTime]: 'an ISO 8601 date or date-time',
  [PATTERNS.email]: 'an e-mail address',
  [PATTERNS.uri]: 'an absolute URI',
  [PATTERNS.hexColor]: 'a hexadecimal colour (#rgb, #rgba, #rrggbb or #rrggbbaa)',
  [PATTERNS.decimalInteger]: 'a decimal integer (digits only, at most 16)',
  [PATTERNS.eventName]: 'a name of letters, digits and _ . : - (starting with a letter, digit or _)',
  [PATTERNS.numberPattern]: 'a pattern containing {number} and only the elements {number}, {YYYY}, {MM}, {DD}',
};
