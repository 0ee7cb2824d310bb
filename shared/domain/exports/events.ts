import type { EventDraft } from '../events/catalog';
import { toExport, type ExportItem } from './export';

/**
 * `export.completed` when an export leaves `pending` (completed or failed: its `status` and `error` say which). The
 * move is one conditional write (run.ts), so it is told once, however often its work ran.
 */
export function exportEvents(before: ExportItem | undefined, after: ExportItem | undefined): EventDraft[] {
  if (!after || after.status === 'pending' || before?.status !== 'pending') return [];
  return [{ type: 'export.completed', data: toExport(after) }];
}
