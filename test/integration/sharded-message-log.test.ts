import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx } from '../../shared/context';
import { db, tableName } from '../../shared/db/client';
import type { EventType } from '../../shared/domain/events/catalog';
import { recordEvents } from '../../shared/domain/events/record-events';
import { deterministicUlid } from '../../shared/ids';
import { startTestApi, type Client, type TestApi } from '../support/api';

/**
 * The message log is written across shards (docs/operations.md, "Sharded logs and counters") and listed through
 * GET /v1/webhooks/messages as one newest-first list: the real writer (recordEvents) and, for messages stored
 * before the shards, items in the old unsharded shape, against DynamoDB Local through the HTTP layer.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const HOUR = 3_600_000;
const TYPES: EventType[] = ['customer.created', 'customer.updated', 'customer.archived'];
interface Listed {
  id: string;
  payload: { event_type: string };
}

/** `count` messages, one change each, at `from`, `from` + 1 min, …; types cycling through TYPES. */
async function record(client: Client, from: number, count: number, label: string): Promise<{ id: string; pk: string; type: string; time: number }[]> {
  const ctx = makeCtx(client.workspace, 'test');
  const recorded = [];
  for (let i = 0; i < count; i++) {
    const type = TYPES[i % TYPES.length]!;
    const [recordedOne] = await recordEvents(ctx, { changeId: `${label}-${i}`, time: from + i * 60_000, events: [{ type, data: { id: `cus_${label}${i}` } }] });
    const { message } = recordedOne!;
    recorded.push({ id: message.id, pk: message.pk, type, time: from + i * 60_000 });
  }
  return recorded;
}

/** A message as the log stored it before it was sharded: one partition per workspace and per type. */
async function legacyMessage(client: Client, time: number, i: number, type: EventType): Promise<{ id: string; type: string; time: number }> {
  const id = `msg_${deterministicUlid(time, Buffer.from(`legacy-${i}`.padEnd(16, '-')))}`;
  const at = new Date(time).toISOString();
  const ws = `WS#${client.workspace}`;
  await db.send(new PutCommand({
    TableName: tableName(),
    Item: {
      pk: `${ws}#MSG`, sk: id, gsi2pk: `${ws}#MSGTYPE#${type}`, gsi2sk: id, _type: 'webhook_message', _version: 0,
      id, event_id: id.replace('msg_', 'evt_'), payload: { event_type: type, data: { id: `cus_legacy${i}` } }, sent_at: at, created_at: at,
    },
  }));
  return { id, type, time };
}

async function listAll(client: Client, query: string, between?: (page: number) => Promise<void>): Promise<string[]> {
  const ids: string[] = [];
  let iterator: string | null = null;
  for (let page = 0; page === 0 || iterator; page++) {
    const reply: { status: number; body: { meta: { iterator: string | null }; data: Listed[] } } = await client.get<{ meta: { iterator: string | null }; data: Listed[] }>(`/v1/webhooks/messages?${query}${iterator ? `&iterator=${encodeURIComponent(iterator)}` : ''}`);
    expect(reply.status).toBe(200);
    ids.push(...reply.body.data.map((m) => m.id));
    iterator = reply.body.meta.iterator;
    if (iterator) await between?.(page);
  }
  return ids;
}

const newestFirst = (ids: string[]) => [...ids].sort().reverse();

describe('the sharded message log', () => {
  it('spreads a workspace\'s messages over its shards and lists them newest first, with those stored before the shards', async () => {
    const client = await api.client();
    const start = Date.now() - 10 * HOUR;
    const recorded = await record(client, start, 48, 'a');
    const legacy = await Promise.all([0, 1, 2, 3, 4].map((i) => legacyMessage(client, start + (i * 11 + 5) * 60_000 + 30_000, i, TYPES[i % TYPES.length]!)));
    expect(new Set(recorded.map((m) => m.pk)).size).toBeGreaterThanOrEqual(8);

    const everything = newestFirst([...recorded, ...legacy].map((m) => m.id));
    expect(await listAll(client, 'limit=7')).toEqual(everything);
    expect(await listAll(client, 'limit=250')).toEqual(everything);

    // A message is found by id in its shard, or in the log before the shards.
    for (const { id } of [recorded[17]!, legacy[3]!]) expect((await client.get(`/v1/webhooks/messages/${id}`)).body.id).toBe(id);
  });

  it('keeps its cursor while new messages arrive: no message skipped or repeated; a new listing starts with them', async () => {
    const client = await api.client();
    const start = Date.now() - 20 * HOUR;
    const before = await record(client, start, 30, 'b');
    let added: { id: string }[] = [];
    const listed = await listAll(client, 'limit=4', async (page) => {
      added = [...added, ...(await record(client, Date.now() - HOUR + page * 600_000, 2, `b-new-${page}`))];
    });
    expect(listed).toEqual(newestFirst(before.map((m) => m.id)));
    expect(added.length).toBeGreaterThan(0);
    const fresh = (await client.get<{ data: Listed[] }>('/v1/webhooks/messages?limit=250')).body.data.map((m) => m.id);
    expect(fresh).toEqual(newestFirst([...before, ...added].map((m) => m.id)));
  });

  it('filters by event types over the sharded type index, with the same cursor rules', async () => {
    const client = await api.client();
    const start = Date.now() - 30 * HOUR;
    const recorded = await record(client, start, 45, 'c');
    const legacy = await Promise.all([0, 1, 2, 3].map((i) => legacyMessage(client, start + (i * 7 + 3) * 60_000 + 30_000, i, TYPES[i % TYPES.length]!)));
    const all = [...recorded, ...legacy];
    const ofTypes = (...types: string[]) => newestFirst(all.filter((m) => types.includes(m.type)).map((m) => m.id));

    expect(await listAll(client, 'event_types=customer.updated&limit=3')).toEqual(ofTypes('customer.updated'));
    expect(await listAll(client, 'event_types=customer.created,customer.archived&limit=5')).toEqual(ofTypes('customer.created', 'customer.archived'));

    // A time window narrows every shard alike (after and before are exclusive).
    const after = new Date(start + 9 * 60_000).toISOString();
    const beforeTime = new Date(start + 30 * 60_000).toISOString();
    const windowed = await listAll(client, `after=${after}&before=${beforeTime}&limit=6`);
    expect(windowed).toEqual(newestFirst(all.filter((m) => m.time > Date.parse(after) && m.time < Date.parse(beforeTime)).map((m) => m.id)));
    expect(windowed.length).toBeGreaterThan(15);
  });
});
