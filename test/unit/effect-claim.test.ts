import { effectKey, effectMark, outsideEffect, withEffectClaim, type EffectClaim } from '../../shared/db/effect-claim';

const claim = (committed: number): EffectClaim => ({ pk: 'WS#ws_1#IDEMPOTENCY#ab', sk: 'IDEMPOTENCY', request_id: 'req_1', committed });
const created = { Put: { Item: { pk: 'WS#ws_1#WAL#w', sk: 'TX#t', _type: 'wallet_transaction' }, ConditionExpression: 'attribute_not_exists(pk)' } };
const replaced = { Put: { Item: { pk: 'WS#ws_1#WAL#w', sk: 'WAL', _type: 'wallet' }, ConditionExpression: '#v = :v' } };

describe('effectMark', () => {
  it('commits the first transaction only on the in-progress claim of this request', () => {
    const mark = effectMark(claim(0), [replaced, created]).Update;
    expect(mark.Key).toEqual({ pk: claim(0).pk, sk: 'IDEMPOTENCY' });
    expect(mark.ConditionExpression).toBe('request_id = :mine AND #status = :in_progress');
    expect(mark.ExpressionAttributeValues).toMatchObject({ ':mine': 'req_1', ':in_progress': 'in_progress', ':committed': 'committed', ':next': 1 });
  });

  it('commits a later transaction only on the count this request has seen, so an unseen commit is never repeated', () => {
    const mark = effectMark(claim(2), []).Update;
    expect(mark.ConditionExpression).toBe('request_id = :mine AND effect_count = :seen');
    expect(mark.ExpressionAttributeValues).toMatchObject({ ':seen': 2, ':next': 3 });
  });

  it('names the items the transaction created (puts on absent keys), not those it replaced', () => {
    expect(effectMark(claim(0), [replaced, created]).Update.ExpressionAttributeValues[':created']).toEqual([
      { pk: 'WS#ws_1#WAL#w', sk: 'TX#t', type: 'wallet_transaction' },
    ]);
  });
});

describe('the claim in scope', () => {
  it('is seen inside the request, not outside it nor in outsideEffect, and names a stable provider key', async () => {
    expect(effectKey()).toBeUndefined();
    const keys = await withEffectClaim(claim(0), async () => {
      await Promise.resolve();
      return [effectKey(), outsideEffect(() => effectKey()), effectKey()];
    });
    expect(keys[0]).toMatch(/^idem_[0-9a-f]{32}$/);
    expect(keys).toEqual([keys[0], undefined, keys[0]]);
    expect(await withEffectClaim({ ...claim(0), request_id: 'req_retry' }, async () => effectKey())).toBe(keys[0]);
  });
});
