import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import type { TransactItem } from '../../db/transactions';
import { entityItemKey, type EntityItem } from '../invoicing-entities/invoicing-entity';
import type { InvoiceType } from './invoice';

/** Each document type has its own pattern and counter on the invoicing entity. */
const SEQUENCES = {
  invoice: { pattern: 'invoice_number_pattern', counter: 'next_invoice_number' },
  credit_note: { pattern: 'credit_note_number_pattern', counter: 'next_credit_note_number' },
  document: { pattern: 'document_number_pattern', counter: 'next_document_number' },
} as const;

/** One formatter per zone: building one costs more than formatting with it, and a billing run numbers thousands. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date of `at` in `timeZone`, as [YYYY, MM, DD]. */
function localDate(at: Date, timeZone: string): [string, string, string] {
  let format = dateFormats.get(timeZone);
  if (!format) dateFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  const parts = format.formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return [part('year'), part('month'), part('day')];
}

/** The calendar day of `at` in the entity's time zone, `YYYY-MM-DD`: the day an invoice issued then is dated. */
export const issueDay = (entity: Pick<EntityItem, 'timezone'>, at: Date): string => localDate(at, entity.timezone).join('-');

/** `INV-{YYYY}{MM}-{number}` → `INV-202611-42`: the date elements are the issue date in the entity's timezone. */
export function formatNumber(pattern: string, sequence: number, issuedAt: Date, timeZone: string): string {
  const [year, month, day] = localDate(issuedAt, timeZone);
  return pattern.replaceAll('{number}', String(sequence)).replaceAll('{YYYY}', year).replaceAll('{MM}', month).replaceAll('{DD}', day);
}

export interface TakenNumber {
  number: string;
  /** Advances the entity's counter, only if it still holds the number read: put it in the numbered document's transaction. */
  item: TransactItem;
}

/**
 * Takes the next number of `type` from the entity read in this attempt. The counter update is conditional on the
 * value read, so two documents can never take the same number, and it sits in the transaction that leaves draft,
 * so a failed transaction consumes no number (no gap). The entity's version moves too: an entity edit that read
 * the old counter must retry rather than write it back.
 */
export function takeNumber(ctx: Ctx, entity: EntityItem, type: InvoiceType, issuedAt: Date): TakenNumber {
  return { number: numberOf(entity, type, entity[SEQUENCES[type].counter], issuedAt), item: takeNumbers(ctx, entity, type, 1) };
}

/** The number `sequence` of the entity's series of `type`, as its pattern writes it for a document issued at `issuedAt`. */
export function numberOf(entity: EntityItem, type: InvoiceType, sequence: number, issuedAt: Date): string {
  return formatNumber(entity[SEQUENCES[type].pattern], sequence, issuedAt, entity.timezone);
}

/** Whether `later` is `earlier` with nothing changed but its numbering counters (and so its version). */
export function onlyNumbersMoved(earlier: EntityItem, later: EntityItem): boolean {
  const moving = new Set<string>([...Object.values(SEQUENCES).map((s) => s.counter), '_version']);
  const rest = (entity: EntityItem) => Object.entries(entity).filter(([name]) => !moving.has(name));
  const before = rest(earlier);
  return before.length === rest(later).length && before.every(([name, value]) => JSON.stringify(value) === JSON.stringify((later as unknown as Record<string, unknown>)[name]));
}

/**
 * The counter moved past `count` numbers at once (`current` … `current + count − 1`, taken in that order by the
 * documents of the same transaction): conditional on the value read, like `takeNumber`, so it never overlaps another
 * taker and, all-or-nothing with those documents, never leaves a gap.
 */
export function takeNumbers(ctx: Ctx, entity: EntityItem, type: InvoiceType, count: number): TransactItem {
  const sequence = SEQUENCES[type];
  const current = entity[sequence.counter];
  return {
    Update: {
      TableName: tableName(),
      Key: entityItemKey(ctx, entity.id),
      UpdateExpression: 'SET #counter = :next, #v = #v + :one',
      ConditionExpression: '#counter = :current',
      ExpressionAttributeNames: { '#counter': sequence.counter, '#v': '_version' },
      ExpressionAttributeValues: { ':current': current, ':next': current + count, ':one': 1 },
      // A taker that lost the race learns where the counter stands from the cancellation, without reading it again.
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}
