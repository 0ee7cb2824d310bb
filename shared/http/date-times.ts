import { PATTERNS } from '../schemas/formats';

const DATE_TIME = new RegExp(PATTERNS.dateTime);
/** Members named like a date-time (`emitted_at`, `expiration_date`…). */
const DATE_MEMBER = /(_at|_date)$/;
/** Free-form metadata: whatever the client put there comes back as given. */
const FREE_FORM = new Set(['properties', 'custom_properties', 'metadata']);

const canonical = (text: string): string => {
  const time = Date.parse(text);
  return Number.isNaN(time) ? text : new Date(time).toISOString();
};

/**
 * Rewrites every date-time member of a validated body into the one documented form, UTC with milliseconds
 * (`2026-01-31T12:00:00.000Z`): the schemas accept any ISO 8601 offset and precision, but what is stored, compared
 * as a string (list ranges, schedules) and returned must be uniform. In place; metadata is left alone.
 */
export function normalizeDateTimes(value: unknown): void {
  if (Array.isArray(value)) {
    value.forEach(normalizeDateTimes);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  for (const [key, member] of Object.entries(record)) {
    if (FREE_FORM.has(key)) continue;
    if (typeof member === 'string' && DATE_MEMBER.test(key) && DATE_TIME.test(member)) record[key] = canonical(member);
    else normalizeDateTimes(member);
  }
}
