import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { settingKey } from '../../db/keys';
import { writeUnlessDone } from '../../db/transactions';
import { InvalidRequest } from '../../errors';

/**
 * Opaque, tamper-proof list cursors: the listing state, base64url-encoded, plus an HMAC keyed by a random key of
 * the workspace (kept in the table, made on first use). A forged cursor, or one from another workspace, fails the
 * check: 400 `invalid_iterator`.
 */
const keyItem = (ctx: Ctx) => settingKey(ctx, 'ITERATOR_KEY');

/** A workspace's key never changes: a warm process keeps the ones it has read (bounded). */
const known = new Map<string, Buffer>();
const MAX_KNOWN = 1_000;

async function workspaceKey(ctx: Ctx): Promise<Buffer> {
  const cached = known.get(ctx.workspaceId);
  if (cached) return cached;
  const key = await readOrCreateKey(ctx);
  if (known.size >= MAX_KNOWN) known.delete(known.keys().next().value!);
  known.set(ctx.workspaceId, key);
  return key;
}

async function readOrCreateKey(ctx: Ctx): Promise<Buffer> {
  const found = await db.send(new GetCommand({ TableName: tableName(), Key: keyItem(ctx), ConsistentRead: true }));
  if (found.Item) return Buffer.from(String(found.Item.key), 'base64');
  const key = randomBytes(32).toString('base64');
  const put = db.send(new PutCommand({ TableName: tableName(), Item: { ...keyItem(ctx), _type: 'setting', key }, ConditionExpression: 'attribute_not_exists(pk)' }));
  // Two first listings at once: one key wins, and both use it.
  return (await writeUnlessDone(put)) ? Buffer.from(key, 'base64') : readOrCreateKey(ctx);
}

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

export async function sealIterator(ctx: Ctx, state: object): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ ws: ctx.workspaceId, ...state })).toString('base64url');
  return `${payload}.${mac(await workspaceKey(ctx), payload)}`;
}

export async function openIterator<T>(ctx: Ctx, iterator: string): Promise<T> {
  const invalid = () => new InvalidRequest('The iterator is not valid here: pass back the one a previous page returned.', [{ path: 'query.iterator', message: 'is not a valid iterator' }], 'invalid_iterator');
  const [payload, signature] = iterator.split('.');
  if (!payload || !signature) throw invalid();
  const expected = Buffer.from(mac(await workspaceKey(ctx), payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
  const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { ws?: string } & T;
  if (state.ws !== ctx.workspaceId) throw invalid();
  return state;
}
