import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { DomainError } from '../../errors';
import { fileStore, workspaceFileKey } from '../../storage/file-store';
import { writeDataFiles } from './data-files';
import { exportKey, type ExportFile, type ExportItem, type FileWriter } from './export';
import { writeJournalFiles } from './journal-files';
import { findExportItem } from './read';

/**
 * Where an export's files are kept: under its own id; but a whole workspace's data in one Hive-style layout
 * (`exports/data/table=…/date=…/part-0.parquet`), which every such export of those days rewrites, so an Athena
 * table over it reads each day once, as last exported.
 */
const keyOf = (ctx: Ctx, item: ExportItem, name: string): string =>
  item.kind === 'data' && !item.invoicing_entity_id
    ? workspaceFileKey(ctx.workspaceId, 'exports', 'data', ...name.split('/'))
    : workspaceFileKey(ctx.workspaceId, 'exports', item.id, ...name.split('/'));

/**
 * The due work of an export (shared/domain/schedules/run-due.ts): makes its files and moves it, once, from pending
 * to completed, or to failed with the rule that refused it (a foreign currency without a rate, an entity without a
 * SIREN…). Run again (a retried message, a worker that crashed after the files), it writes the same keys again and
 * the move, conditioned on the version it read while pending, happens once: one `export.completed`. Infrastructure
 * errors are thrown, and the queue retries.
 */
export async function runExport(ctx: Ctx, id: string): Promise<void> {
  const item = await findExportItem(ctx, id, true).catch(() => undefined);
  if (!item || item.status !== 'pending') return;
  const files: ExportFile[] = [];
  const target = await fileStore();
  const write: FileWriter = async (name, body, contentType, rows, entityId) => {
    const key = keyOf(ctx, item, name);
    await target.put(key, body, contentType);
    files.push({ name, content_type: contentType, size: body.byteLength, rows, invoicing_entity_id: entityId, key });
  };
  let error: ExportItem['error'] = null;
  try {
    await (item.kind === 'data' ? writeDataFiles(ctx, item, write) : writeJournalFiles(ctx, item, write));
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    error = { code: e.code, message: e.message };
  }
  await finish(ctx, item, error ? { status: 'failed', files: [], error } : { status: 'completed', files, error: null });
}

async function finish(ctx: Ctx, item: ExportItem, outcome: Pick<ExportItem, 'status' | 'files' | 'error'>): Promise<void> {
  const now = ctx.clock.now().toISOString();
  try {
    await db.send(new UpdateCommand({
      TableName: tableName(), Key: exportKey(ctx, item.id),
      UpdateExpression: 'SET #status = :status, files = :files, #error = :error, completed_at = :now, updated_at = :now, #v = :next REMOVE gsi4pk, gsi4sk',
      ConditionExpression: '#v = :read AND #status = :pending',
      ExpressionAttributeNames: { '#status': 'status', '#error': 'error', '#v': '_version' },
      ExpressionAttributeValues: { ':status': outcome.status, ':files': outcome.files, ':error': outcome.error, ':now': now, ':next': item._version + 1, ':read': item._version, ':pending': 'pending' },
    }));
  } catch (e) {
    // Another run finished it first: its move stands, and this one is a duplicate.
    if ((e as { name?: string }).name !== 'ConditionalCheckFailedException') throw e;
  }
}
