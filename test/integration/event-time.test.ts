import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { handler } from '../../functions/streams/events';
import { makeCtx } from '../../shared/context';
import { listMessages } from '../../shared/domain/events/list-messages';
import { newWorkspace } from '../support/api';

/**
 * A message's `sent_at` is when the change happened, to the millisecond: the item's own time (`updated_at`, or
 * `created_at` for items written once such as wallet transactions), never the stream's approximate (whole-second,
 * even whole-minute) time. The real stream handler against DynamoDB Local.
 */
describe('event time', () => {
  it('dates a wallet.credited message by the transaction, not by the stream', async () => {
    const workspace = newWorkspace();
    const created = '2026-11-23T12:26:40.963Z';
    const transaction = {
      pk: `WS#${workspace}#WAL#wal_1`, sk: 'TX#wtx_1', _type: 'wallet_transaction', id: 'wtx_1', wallet_id: 'wal_1', customer_id: 'cus_1', type: 'credit_free',
      amount: 100, balance_after: 100, currency: 'EUR', comment: null, source: 'load', reverts_transaction_id: null, reverted_by_transaction_id: null, invoice_id: null,
      created_at: created,
    };
    const event = {
      Records: [{
        eventID: `change-${workspace}`, eventName: 'INSERT',
        dynamodb: { NewImage: marshall(transaction) as never, ApproximateCreationDateTime: Date.parse('2026-11-23T12:26:00.000Z') / 1000, SequenceNumber: '1' },
      }],
    } as DynamoDBStreamEvent;
    expect(await handler(event)).toEqual({ batchItemFailures: [] });
    const listed = await listMessages(makeCtx(workspace, 'test'), { limit: 10, after: '2026-11-01T00:00:00.000Z' });
    expect(listed.data.map((m) => [m.payload.event_type, m.sent_at])).toEqual([['wallet.credited', created]]);
  });
});
