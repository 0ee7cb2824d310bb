import { makeCtx } from '../../shared/context';
import { setAfterSendHook } from '../../shared/db/client';
import type { EventDraft } from '../../shared/domain/events/catalog';
import { recordEvents } from '../../shared/domain/events/record-events';
import { startTestApi, type Client, type TestApi } from '../support/api';

/**
 * The events of one change (an invoice created and ready, paid and charged) are written in one transaction, and
 * exactly once however often the change is delivered, even after an earlier try wrote part of them: the real
 * writer (recordEvents) against DynamoDB Local, what it wrote read through GET /v1/webhooks/messages.
 */
let api: TestApi;
let client: Client;
beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
});
afterEach(() => setAfterSendHook(undefined));
afterAll(() => api.close());

const events = (label: string): EventDraft[] => [
  { type: 'customer.created', data: { id: `cus_${label}` } },
  { type: 'customer.updated', data: { id: `cus_${label}` } },
  { type: 'customer.archived', data: { id: `cus_${label}` } },
];

/** Transactions sent while `work` runs. */
async function transactionsOf(work: () => Promise<unknown>): Promise<number> {
  let count = 0;
  setAfterSendHook((name) => {
    if (name === 'TransactWriteItemsCommand') count += 1;
  });
  await work();
  setAfterSendHook(undefined);
  return count;
}

const listed = async (label: string): Promise<string[]> => {
  const reply = await client.get<{ data: { id: string; payload: { event_type: string; data: { id: string } } }[] }>('/v1/webhooks/messages?limit=100');
  expect(reply.status).toBe(200);
  return reply.body.data.filter((m) => m.payload.data.id === `cus_${label}`).map((m) => m.payload.event_type).sort();
};

describe('recording a change\'s events', () => {
  it('writes them in one transaction, and nothing when the change is delivered again', async () => {
    const ctx = makeCtx(client.workspace, 'test');
    const change = { changeId: 'change-once', time: Date.now(), events: events('once') };
    let first: Awaited<ReturnType<typeof recordEvents>> = [];
    expect(await transactionsOf(async () => (first = await recordEvents(ctx, change)))).toBe(1);
    expect(first.map((r) => r.created)).toEqual([true, true, true]);

    const again = await recordEvents(ctx, change);
    expect(again.map((r) => r.created)).toEqual([false, false, false]);
    expect(again.map((r) => r.message.id)).toEqual(first.map((r) => r.message.id));
    expect(await listed('once')).toEqual(['customer.archived', 'customer.created', 'customer.updated']);
  });

  it('writes the rest, once, of a change an earlier try recorded in part', async () => {
    const ctx = makeCtx(client.workspace, 'test');
    const time = Date.now();
    // The earlier try got as far as the first event (the same change id and position: the same ids).
    await recordEvents(ctx, { changeId: 'change-part', time, events: events('part').slice(0, 1) });

    const recorded = await recordEvents(ctx, { changeId: 'change-part', time, events: events('part') });
    expect(recorded.map((r) => r.created)).toEqual([false, true, true]);
    expect(await listed('part')).toEqual(['customer.archived', 'customer.created', 'customer.updated']);
  });
});
