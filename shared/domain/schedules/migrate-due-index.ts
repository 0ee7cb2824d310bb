import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx } from '../../context';
import { db, tableName } from '../../db/client';
import { dueIndexKeys } from '../../db/due-keys';
import { workspaceOf } from '../../db/keys';
import { writeUnlessDone } from '../../db/transactions';
import { PENDING_CHECK, pendingCheckListKeys } from '../invoices/pending-check';

/**
 * One-time move of a stack's scheduling-index entries from the shape before issue 31 (`gsi4pk` = `WS#<ws>#DUE`, one
 * partition per workspace) to their year and shard (shared/db/due-keys.ts), the pending checks also into their
 * workspace's list (gsi1). One Scan of gsi4 (keys only), then one conditional update per old entry: conditioned on
 * its keys being those read, so an entry the service moved meanwhile is left as it is, and a second run finds
 * nothing to do. Until it has run, the old entries wait: their work is late, not lost (docs/deploy.md).
 */
export async function migrateDueIndex(log: (line: string) => void = () => {}): Promise<{ moved: number; skipped: number }> {
  let [moved, skipped] = [0, 0];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({
      TableName: tableName(), IndexName: 'gsi4', FilterExpression: 'begins_with(gsi4pk, :ws)', ExpressionAttributeValues: { ':ws': 'WS#' }, ExclusiveStartKey: start,
    }));
    for (const entry of page.Items ?? []) {
      const [due, kind, id, group] = String(entry.gsi4sk).split('#');
      const workspace = workspaceOf(entry.pk);
      if (!due || !kind || !id || !workspace) continue;
      const ctx = makeCtx(workspace, 'migrate-due-index');
      const keys = { ...dueIndexKeys(ctx, due, kind, id, group), ...(kind === PENDING_CHECK && pendingCheckListKeys(ctx, due, id)) };
      const done = await writeUnlessDone(db.send(new UpdateCommand({
        TableName: tableName(), Key: { pk: entry.pk, sk: entry.sk },
        UpdateExpression: `SET ${Object.keys(keys).map((k) => `${k} = :${k}`).join(', ')}`,
        ConditionExpression: 'gsi4pk = :oldPk AND gsi4sk = :oldSk',
        ExpressionAttributeValues: { ...Object.fromEntries(Object.entries(keys).map(([k, v]) => [`:${k}`, v])), ':oldPk': entry.gsi4pk, ':oldSk': entry.gsi4sk },
      })));
      if (done) moved += 1;
      else skipped += 1;
    }
    start = page.LastEvaluatedKey;
    log(`moved ${moved}, skipped ${skipped}${start ? ', scanning on' : ''}`);
  } while (start);
  return { moved, skipped };
}
