import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { dueIndexKeys, settingKey, type Key } from '../../db/keys';
import { counterUpdate } from '../../db/pagination';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { deterministicUlid } from '../../ids';
import { EXPORT, newExportItem } from './export';

/** The kind of due work (gsi4) that asks for the day before's data export, each night. */
export const DAILY_DATA_EXPORT = 'daily_data_export';

/** When the night's export is asked for: 01:00 UTC, once the day before is over everywhere it matters. */
const RUN_HOUR = 1;

interface DailySetting extends Key {
  _type: 'export_schedule';
  next_run_at: string;
  gsi4pk: string;
  gsi4sk: string;
}

const dailyKey = (ctx: Ctx) => settingKey(ctx, 'DAILY_DATA_EXPORT');

const nextRunAfter = (now: Date): string => {
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), RUN_HOUR));
  return (at.getTime() > now.getTime() ? at : new Date(at.getTime() + 86_400_000)).toISOString();
};

const settingAt = (ctx: Ctx, at: string): DailySetting => ({ ...dailyKey(ctx), _type: 'export_schedule', next_run_at: at, ...dueIndexKeys(ctx, at, DAILY_DATA_EXPORT, 'data') });

/** `daily: true` arms the nightly data export (kept as armed if it is); `false` removes it. */
export async function setDailyDataExport(ctx: Ctx, on: boolean): Promise<void> {
  if (!on) {
    await db.send(new DeleteCommand({ TableName: tableName(), Key: dailyKey(ctx) }));
    return;
  }
  await db.send(new PutCommand({ TableName: tableName(), Item: settingAt(ctx, nextRunAfter(ctx.clock.now())), ConditionExpression: 'attribute_not_exists(pk)' }))
    .catch((e) => { if ((e as { name?: string }).name !== 'ConditionalCheckFailedException') throw e; });
}

/**
 * The night's run: one transaction creates the data export of the day before the run (its id derived from the
 * workspace and the day) and moves the setting to the next night, conditioned on the run it read, so a run
 * repeated by the queue creates nothing twice. The export itself is then due work of its own (run.ts).
 */
export async function runDailyDataExport(ctx: Ctx, key: Key): Promise<void> {
  const setting = await getItem<DailySetting>(key, true);
  if (!setting || Date.parse(setting.next_run_at) > ctx.clock.now().getTime()) return;
  const day = new Date(Date.parse(setting.next_run_at) - 86_400_000).toISOString().slice(0, 10);
  const seed = createHash('sha256').update(`${ctx.workspaceId}\ndaily\n${day}`).digest();
  const id = `exp_${deterministicUlid(Date.parse(setting.next_run_at), seed)}`;
  const item = newExportItem(ctx, id, { kind: 'data', format: 'parquet', period: { from: day, to: day }, invoicing_entity_id: null, trigger: 'daily' });
  const next = settingAt(ctx, new Date(Date.parse(setting.next_run_at) + 86_400_000).toISOString());
  try {
    await transactWrite([
      { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      counterUpdate(ctx, EXPORT, 1),
      { Put: { TableName: tableName(), Item: next, ConditionExpression: 'next_run_at = :read', ExpressionAttributeValues: { ':read': setting.next_run_at } } },
    ]);
  } catch (e) {
    if (!(e instanceof ConditionFailed)) throw e; // done already
  }
}
