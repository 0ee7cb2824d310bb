import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { counterUpdate } from '../../db/pagination';
import { transactWrite } from '../../db/transactions';
import { InvalidRequest, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { findEntityItem } from '../invoicing-entities/read';
import { setDailyDataExport } from './daily';
import { EXPORT, FORMATS_OF, newExportItem, toExport, type Export, type ExportFormat, type ExportKind } from './export';

export interface ExportInput {
  kind: ExportKind;
  format: ExportFormat;
  period?: { from: string; to: string };
  from?: string;
  to?: string;
  invoicing_entity_id?: string | null;
  daily?: boolean;
}

/** An export reads the whole workspace once: a year at most keeps its work bounded (a FEC covers a fiscal year). */
export const MAX_PERIOD_DAYS = 366;

const DAY_MS = 86_400_000;

/** The period of the body (`period`, or `from` and `to`), checked: real days, in order, a year at most. */
export function periodOf(input: ExportInput): { from: string; to: string } {
  const given = input.period ?? (input.from && input.to ? { from: input.from, to: input.to } : undefined);
  if (!given) throw new InvalidRequest('Give the period: `period: {from, to}`, or `from` and `to`.', [{ path: 'body.period', message: 'is required' }]);
  if (input.period && (input.from || input.to)) throw new InvalidRequest('Give the period once: `period`, or `from` and `to`.', [{ path: 'body.period', message: 'given twice' }]);
  const [from, to] = [Date.parse(`${given.from}T00:00:00Z`), Date.parse(`${given.to}T00:00:00Z`)];
  const real = (day: string, ms: number) => Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day;
  if (!real(given.from, from) || !real(given.to, to)) throw new InvalidRequest('The period names a day that does not exist.', [{ path: 'body.period', message: 'must be real calendar days' }]);
  if (to < from) throw new RuleViolation('period_invalid', `The period ends (${given.to}) before it starts (${given.from}).`);
  if ((to - from) / DAY_MS + 1 > MAX_PERIOD_DAYS) throw new RuleViolation('period_too_long', `An export covers ${MAX_PERIOD_DAYS} days at most; ask for several.`);
  return { from: given.from, to: given.to };
}

/**
 * `POST /v1/exports`: the export is written `pending` and due at once in the scheduling index; the due work makes
 * its files (run.ts) and it becomes `completed` (or `failed`, saying why), which emits `export.completed`.
 */
export async function createExport(ctx: Ctx, input: ExportInput): Promise<Export> {
  if (!FORMATS_OF[input.kind].includes(input.format)) {
    throw new RuleViolation('format_not_supported', `A ${input.kind} export is written as ${FORMATS_OF[input.kind].join(', ')}, not ${input.format}.`);
  }
  if (input.daily !== undefined && input.kind !== 'data') throw new RuleViolation('daily_not_supported', 'Only data exports repeat daily.');
  const period = periodOf(input);
  const entityId = input.invoicing_entity_id ?? null;
  // A deleted entity's past documents are still exported.
  if (entityId) await findEntityItem(ctx, entityId).catch(() => { throw new RuleViolation('invoicing_entity_not_found', `No invoicing entity with id '${entityId}'.`); });
  const item = newExportItem(ctx, newId('exp'), { kind: input.kind, format: input.format, period, invoicing_entity_id: entityId, trigger: 'api' });
  await transactWrite([
    { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
    counterUpdate(ctx, EXPORT, 1),
  ]);
  if (input.daily !== undefined) await setDailyDataExport(ctx, input.daily);
  return toExport(item);
}
