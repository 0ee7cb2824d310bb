import { jest } from '@jest/globals';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { handler as streamHandler } from '../../functions/streams/events';
import { db, tableName } from '../../shared/db/client';
import { discardQuarantined, listQuarantined, replayQuarantined } from '../../shared/domain/events/quarantine';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ events: true });
});
afterAll(() => api.close());
afterEach(() => jest.restoreAllMocks());

type Message = { payload: { event_type: string; data: { id: string; name?: string; properties?: unknown }; truncated?: string[] } };
const messages = async (client: Client): Promise<Message[]> => (await client.get('/v1/webhooks/messages?limit=250')).body.data;
const names = (list: Message[], type: string) => list.filter((m) => m.payload.event_type === type).map((m) => m.payload.data.name).sort();

const nested = (levels: number): Record<string, unknown> => (levels === 0 ? { leaf: true } : { next: nested(levels - 1) });

/** Captures the embedded-metric-format lines the handler writes to stdout. */
function metricLines() {
  const lines: Record<string, unknown>[] = [];
  const write = process.stdout.write.bind(process.stdout);
  jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) => {
    const text = String(chunk);
    if (text.includes('"CloudWatchMetrics"')) lines.push(JSON.parse(text));
    else return write(chunk, ...rest);
    return true;
  }) as typeof process.stdout.write);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  return lines;
}

describe('a record the stream handler cannot turn into events', () => {
  it('is quarantined and counted, and every record after it, of every workspace, still becomes a message', async () => {
    const metrics = metricLines();
    const a = await api.client();
    const b = await api.client();
    await withEntity(a);
    await withEntity(b);
    await a.post('/v1/customers', { name: 'Before' });
    // Old data of an unexpected shape (no tax_ids): mapping it throws on every try.
    const poisonKey = { pk: `WS#${a.workspace}#CUS#cus_poison`, sk: 'CUS' };
    await db.send(new PutCommand({ TableName: tableName(), Item: { ...poisonKey, _type: 'customer', _version: 0, id: 'cus_poison', name: 'Poison' } }));
    // Old data nested as deep as the table allows: its message must stay bounded, not fail.
    const deep = (await a.post('/v1/customers', { name: 'Deep' })).body;
    await db.send(new UpdateCommand({
      TableName: tableName(), Key: { pk: `WS#${a.workspace}#CUS#${deep.id}`, sk: 'CUS' },
      UpdateExpression: 'SET properties = :deep', ExpressionAttributeValues: { ':deep': nested(30) },
    }));
    await a.post('/v1/customers', { name: 'After' });
    await b.post('/v1/customers', { name: 'Elsewhere' });
    await api.events.settle();

    const ofA = await messages(a);
    expect(names(ofA, 'customer.created')).toEqual(['After', 'Before', 'Deep']);
    const [deepUpdate] = ofA.filter((m) => m.payload.event_type === 'customer.updated');
    expect(deepUpdate!.payload).toMatchObject({ data: { id: deep.id, name: 'Deep', properties: null }, truncated: ['properties'] });
    expect(names(await messages(b), 'customer.created')).toEqual(['Elsewhere']);
    expect((await a.get(`/v1/customers/${deep.id}`)).body.properties).toEqual(nested(30)); // the resource keeps it all

    const quarantined = await listQuarantined(a.workspace);
    expect(quarantined).toHaveLength(1);
    expect(quarantined[0]).toMatchObject({
      ref: expect.stringMatching(new RegExp(`^${a.workspace}/`)), workspace_id: a.workspace, item_pk: poisonKey.pk, item_sk: 'CUS',
      item_type: 'customer', event_name: 'INSERT', sequence_number: expect.any(String), reason: expect.stringMatching(/^TypeError/), replayable: true,
    });
    expect(await listQuarantined(b.workspace)).toEqual([]);
    expect((await listQuarantined()).map((q) => q.ref)).toContain(quarantined[0]!.ref);
    expect(metrics).toEqual([expect.objectContaining({
      QuarantinedRecords: 1,
      _aws: expect.objectContaining({ CloudWatchMetrics: [expect.objectContaining({ Namespace: 'BillingApi', Metrics: [{ Name: 'QuarantinedRecords', Unit: 'Count' }] })] }),
    })]);

    // Still broken: a replay fails and leaves it listed; once judged unneeded, it is discarded.
    await expect(replayQuarantined(quarantined[0]!.ref)).rejects.toThrow(TypeError);
    expect(await listQuarantined(a.workspace)).toHaveLength(1);
    await discardQuarantined(quarantined[0]!.ref);
    expect(await listQuarantined(a.workspace)).toEqual([]);
  });
});

describe('the stream handler on its own', () => {
  async function customerRecords(client: Client, names: string[]): Promise<DynamoDBStreamEvent> {
    const Records = [];
    for (const [index, name] of names.entries()) {
      const customer = (await client.post('/v1/customers', { name })).body;
      const key = { pk: `WS#${client.workspace}#CUS#${customer.id}`, sk: 'CUS' };
      const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key }));
      Records.push({ eventID: `ev-${client.workspace}-${index}`, eventName: 'INSERT', dynamodb: { Keys: marshall(key), NewImage: marshall(Item!), SequenceNumber: String(100 + index), ApproximateCreationDateTime: Date.now() / 1000 } });
    }
    return { Records } as unknown as DynamoDBStreamEvent;
  }
  const plainApi = async () => {
    const plain = await startTestApi(); // no poller: the test calls the handler itself
    const client = await plain.client();
    await withEntity(client);
    return { plain, client };
  };
  /** Makes the TransactWrites recording the events of customer `name` fail with `error` (`once`, or until restored). */
  function failEventWrites(name: string, error: Error, times = Infinity) {
    const send = db.send.bind(db);
    let failures = 0;
    const spy = jest.spyOn(db, 'send').mockImplementation(((command: unknown, ...rest: never[]) => {
      if (failures < times && command instanceof TransactWriteCommand && JSON.stringify(command.input).includes(`"name":"${name}"`)) {
        failures += 1;
        return Promise.reject(error);
      }
      return (send as (c: unknown, ...r: never[]) => Promise<unknown>)(command, ...rest);
    }) as typeof db.send);
    return () => spy.mockRestore();
  }
  const sdkError = (name: string, fault: 'client' | 'server') => Object.assign(new Error(name), { name, $fault: fault, $metadata: {} });

  it('retries a transient failure in order: the record and those after it are reported, nothing is quarantined', async () => {
    const { plain, client } = await plainApi();
    try {
      const batch = await customerRecords(client, ['One', 'Two', 'Three']);
      jest.spyOn(console, 'error').mockImplementation(() => undefined);
      failEventWrites('One', sdkError('ProvisionedThroughputExceededException', 'client'), 1);
      expect(await streamHandler(batch)).toEqual({ batchItemFailures: [{ itemIdentifier: '100' }] });
      expect(await listQuarantined(client.workspace)).toEqual([]);
      expect(await streamHandler(batch)).toEqual({ batchItemFailures: [] });
      expect(names(await messages(client), 'customer.created')).toEqual(['One', 'Three', 'Two']);
    } finally {
      await plain.close();
    }
  });

  it('quarantines a record DynamoDB refuses (ValidationException), goes on, and replays it once the cause is gone', async () => {
    const { plain, client } = await plainApi();
    try {
      const batch = await customerRecords(client, ['One', 'Two', 'Three']);
      const metrics = metricLines();
      const fixCause = failEventWrites('One', sdkError('ValidationException', 'client'));
      expect(await streamHandler(batch)).toEqual({ batchItemFailures: [] });
      expect(names(await messages(client), 'customer.created')).toEqual(['Three', 'Two']);
      // the same batch again (a Lambda retry): the quarantine item is not written twice
      expect(await streamHandler(batch)).toEqual({ batchItemFailures: [] });
      const [held] = await listQuarantined(client.workspace);
      expect(held).toMatchObject({ stream_event_id: `ev-${client.workspace}-0`, sequence_number: '100', reason: 'ValidationException: ValidationException' });
      expect(names(await messages(client), 'customer.created')).toEqual(['Three', 'Two']);
      expect(metrics).toHaveLength(1);

      fixCause();
      await replayQuarantined(held!.ref);
      expect(names(await messages(client), 'customer.created')).toEqual(['One', 'Three', 'Two']);
      expect(await listQuarantined(client.workspace)).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
