import { makeCtx } from '../../shared/context';
import { creditBalanceKey, lotKey, toCreditBalance, toCreditTransaction, type CreditBalanceItem, type CreditLotItem, type CreditTransactionItem } from '../../shared/domain/credits/credit';
import { creditBalanceEvents, creditTransactionEvents } from '../../shared/domain/credits/events';
import { balanceCounter, changeTime, creditChange } from '../../shared/domain/credits/ledger';
import { byExpiry, drawItem, isDue, MAX_DRAWS, MAX_INLINE_EXPIRATIONS, newLot, planUsage } from '../../shared/domain/credits/lots';
import { lowCountThreshold } from '../../shared/domain/credits/topup';
import { mapChange } from '../../shared/domain/events/map-change';
import { RuleViolation } from '../../shared/errors';

const ctx = makeCtx('ws_cred', 'req');
const owner = { balanceKey: creditBalanceKey(ctx, 'cus_1', 'itm_1'), customerId: 'cus_1', productId: 'itm_1', name: 'Credits' };
const pk = owner.balanceKey.pk;
const t0 = new Date('2026-03-01T10:00:00.000Z');
const at = (hours: number) => new Date(t0.getTime() + hours * 3_600_000);

const lot = (id: string, remaining: number, expiresAt: string | null): CreditLotItem => ({
  ...lotKey(pk, expiresAt, id), _type: 'credit_lot', id, customer_id: 'cus_1', product_id: 'itm_1', credit_count: remaining, remaining,
  expires_at: expiresAt, created_at: t0.toISOString(), updated_at: t0.toISOString(),
});

const balance = (over: Partial<CreditBalanceItem> = {}): CreditBalanceItem => ({
  ...owner.balanceKey, _type: 'credit_balance', _version: 3, customer_id: 'cus_1', product_id: 'itm_1', name: 'Credits', balance: 50,
  low_count_threshold: 10, transaction_count: 4, created_at: t0.toISOString(), updated_at: t0.toISOString(), ...over,
});

describe('keys', () => {
  it('orders lots by expiry in the sort key, never-expiring last', () => {
    const keys = [lotKey(pk, null, 'cdt_A'), lotKey(pk, '2026-05-01T00:00:00.000Z', 'cdt_B'), lotKey(pk, '2026-04-01T00:00:00.000Z', 'cdt_C')];
    expect(keys.map((k) => k.sk).sort()).toEqual([keys[2]!.sk, keys[1]!.sk, keys[0]!.sk]);
    expect(pk).toBe('WS#ws_cred#CRD#cus_1#itm_1');
    expect(owner.balanceKey.sk < keys[2]!.sk).toBe(true);
  });

  it('puts a lot in the scheduling index only when it expires', () => {
    const expiring = newLot(ctx, pk, { id: 'cdt_X', customer_id: 'cus_1', product_id: 'itm_1', credit_count: 5, expires_at: '2026-04-01T00:00:00.000Z', created_at: t0.toISOString() });
    expect(expiring).toMatchObject({ remaining: 5, gsi4pk: expect.stringMatching(/^DUE#(2026|LATE)#\d\d$/), gsi4sk: '2026-04-01T00:00:00.000Z#credit_lot#cdt_X' });
    const never = newLot(ctx, pk, { id: 'cdt_Y', customer_id: 'cus_1', product_id: 'itm_1', credit_count: 5, expires_at: null, created_at: t0.toISOString() });
    expect(never).not.toHaveProperty('gsi4pk');
  });
});

describe('planUsage', () => {
  const lots = [lot('cdt_N', 100, null), lot('cdt_L', 50, at(48).toISOString()), lot('cdt_E', 30, at(24).toISOString()), lot('cdt_E0', 30, at(24).toISOString())];

  it('takes the earliest-expiring credits first (oldest top-up among equal expiries) and the never-expiring last', () => {
    expect([...lots].sort(byExpiry).map((l) => l.id)).toEqual(['cdt_E', 'cdt_E0', 'cdt_L', 'cdt_N']);
    const plan = planUsage(lots, 75, t0);
    expect(plan.draws.map((d) => [d.lot.id, d.take])).toEqual([['cdt_E', 30], ['cdt_E0', 30], ['cdt_L', 15]]);
    expect(plan.expire).toEqual([]);
    expect(planUsage(lots, 210, t0).draws.map((d) => [d.lot.id, d.take])).toEqual([['cdt_E', 30], ['cdt_E0', 30], ['cdt_L', 50], ['cdt_N', 100]]);
  });

  it('never uses credits past their expiry: it expires them instead', () => {
    const plan = planUsage(lots, 120, at(30));
    expect(plan.expire.map((l) => l.id)).toEqual(['cdt_E', 'cdt_E0']);
    expect(plan.draws.map((d) => [d.lot.id, d.take])).toEqual([['cdt_L', 50], ['cdt_N', 70]]);
    expect(isDue(lots[2]!, at(24))).toBe(true);
    expect(isDue(lots[0]!, at(10_000))).toBe(false);
  });

  it('refuses more than the usable credits with insufficient_credits, saying how many are past their expiry', () => {
    expect(() => planUsage(lots, 151, at(30))).toThrow(RuleViolation);
    try {
      planUsage(lots, 151, at(30));
    } catch (error) {
      expect(error).toMatchObject({ status: 422, code: 'insufficient_credits' });
      expect((error as Error).message).toContain('150 credits available (60 more are past their expiry');
    }
    expect(() => planUsage([], 1, t0)).toThrow(/exceeds the 0 credits available/);
    expect(planUsage([lot('cdt_0', 0, null), lot('cdt_1', 1, null)], 1, t0).draws.map((d) => d.lot.id)).toEqual(['cdt_1']);
  });

  it('expires at most a bounded number of due lots itself, and draws from a bounded number of lots', () => {
    const due = Array.from({ length: MAX_INLINE_EXPIRATIONS + 5 }, (_, i) => lot(`cdt_D${String(i).padStart(2, '0')}`, 1, at(1).toISOString()));
    expect(planUsage([...due, lot('cdt_N', 5, null)], 5, at(2)).expire).toHaveLength(MAX_INLINE_EXPIRATIONS);
    const crumbs = Array.from({ length: MAX_DRAWS + 1 }, (_, i) => lot(`cdt_C${String(i).padStart(3, '0')}`, 1, null));
    expect(planUsage(crumbs, MAX_DRAWS, t0).draws).toHaveLength(MAX_DRAWS);
    expect(() => planUsage(crumbs, MAX_DRAWS + 1, t0)).toThrow(expect.objectContaining({ code: 'too_many_credit_lots' }));
  });

  it('conditions every lot write on the remaining read: a partial draw updates, a full one deletes', () => {
    const partial = drawItem(lot('cdt_P', 10, null), 4, t0.toISOString());
    expect(partial.Update).toMatchObject({ ConditionExpression: 'remaining = :read', ExpressionAttributeValues: { ':read': 10, ':left': 6 } });
    const full = drawItem(lot('cdt_P', 10, null), 10, t0.toISOString());
    expect(full.Delete).toMatchObject({ ConditionExpression: 'remaining = :read', ExpressionAttributeValues: { ':read': 10 } });
  });
});

describe('creditChange', () => {
  it('chains balance_after over the movements and numbers the entries after the last one', () => {
    const current = balance();
    const { change, entries, balance: after } = creditChange(ctx, owner, current, [
      { type: 'expiration', credit_count: 20, source: 'system', lot_id: 'cdt_L', expires_at: t0.toISOString() },
      { type: 'usage', credit_count: 25, source: 'api', event_id: 'e1' },
    ], at(1));
    expect(entries.map((e) => [e.sk, e.type, e.credit_count, e.balance_after])).toEqual([
      [`TX#${'5'.padStart(12, '0')}`, 'expiration', 20, 30],
      [`TX#${'6'.padStart(12, '0')}`, 'usage', 25, 5],
    ]);
    expect(change).toMatchObject({ readVersion: 3, set: { balance: 5, transaction_count: 6, updated_at: at(1).toISOString() } });
    expect(change.entry).toBe(entries[0]);
    expect(change.also).toHaveLength(1);
    expect(after).toMatchObject({ balance: 5, _version: 4, low_count_threshold: 10 });
  });

  it('creates the balance (version condition attribute_not_exists) with its parent-index keys and counter', () => {
    const { change, alsoIndex } = creditChange(ctx, owner, undefined, [{ type: 'topup', credit_count: 40, source: 'api' }], t0, {
      also: [{ ConditionCheck: { TableName: 't', Key: { pk: 'x', sk: 'y' }, ConditionExpression: 'attribute_exists(pk)' } }],
      lowCountThreshold: lowCountThreshold(40),
    });
    expect(change.readVersion).toBeUndefined();
    expect(change.set).toMatchObject({
      _type: 'credit_balance', customer_id: 'cus_1', product_id: 'itm_1', name: 'Credits', balance: 40, transaction_count: 1, low_count_threshold: 4,
      gsi3pk: 'WS#ws_cred#LIST#CRD#customer_id=cus_1', gsi3sk: `${t0.toISOString()}#itm_1`,
    });
    expect(alsoIndex).toBe(2);
    expect(change.also![0]).toHaveProperty('ConditionCheck');
    expect(change.also![1]!.Update).toMatchObject({ Key: { sk: balanceCounter('cus_1') }, ExpressionAttributeValues: { ':d': 1 } });
  });

  it('never lets the ledger time go back: a change is dated at least at the balance’s last change', () => {
    const current = balance({ updated_at: at(5).toISOString() });
    expect(changeTime(at(1), current)).toEqual(at(5));
    expect(changeTime(at(6), current)).toEqual(at(6));
    expect(creditChange(ctx, owner, current, [{ type: 'topup', credit_count: 1, source: 'api' }], at(1)).entries[0]!.created_at).toBe(at(5).toISOString());
  });

  it('refuses (as a bug) a change below zero', () => {
    expect(() => creditChange(ctx, owner, balance({ balance: 5 }), [{ type: 'usage', credit_count: 6, source: 'api' }], t0)).toThrow(/below zero/);
  });

  it('sets the low-balance threshold at 10 % of a top-up, rounded down', () => {
    expect([5, 10, 99, 100, 1234].map(lowCountThreshold)).toEqual([0, 1, 9, 10, 123]);
  });
});

describe('credit events', () => {
  const entry = (type: CreditTransactionItem['type']): CreditTransactionItem =>
    creditChange(ctx, owner, balance(), [{ type, credit_count: 5, source: type === 'expiration' ? 'system' : 'api' }], t0).entries[0]!;

  it('maps the first balance to credit.created with the balance as data', () => {
    expect(creditBalanceEvents(undefined, balance())).toEqual([{ type: 'credit.created', data: toCreditBalance(balance()) }]);
    expect(toCreditBalance(balance())).toEqual({
      product_id: 'itm_1', customer_id: 'cus_1', name: 'Credits', current_balance: 50, low_count_threshold: 10,
      last_refreshed_at: t0.toISOString(), auto_topup: null, created_at: t0.toISOString(), updated_at: t0.toISOString(),
    });
  });

  it("maps each later change of the balance to Hyperline's credit.updated with the balance, first; no change, none", () => {
    expect(creditBalanceEvents(balance({ balance: 50 }), balance({ balance: 30 }))).toEqual([{ type: 'credit.updated', data: toCreditBalance(balance({ balance: 30 })) }]);
    expect(creditBalanceEvents(balance({ balance: 30 }), balance({ balance: 30, low_count_threshold: 5 }))).toEqual([]);
  });

  it('maps a crossing down to the threshold to credit.low_balance, once', () => {
    const types = (b: number, a: number, threshold = 10) => creditBalanceEvents(balance({ balance: b }), balance({ balance: a, low_count_threshold: threshold })).map((e) => e.type);
    expect(types(50, 10)).toEqual(['credit.updated', 'credit.low_balance']);
    expect(types(11, 3)).toEqual(['credit.updated', 'credit.low_balance']);
    expect(types(10, 3)).toEqual(['credit.updated']);
    expect(types(50, 11)).toEqual(['credit.updated']);
    expect(types(5, 50)).toEqual(['credit.updated']);
  });

  it('maps reaching zero from above to credit.balance_at_zero (with low_balance too when it also crosses the threshold)', () => {
    const types = (b: number, a: number, threshold = 10) => creditBalanceEvents(balance({ balance: b }), balance({ balance: a, low_count_threshold: threshold })).map((e) => e.type);
    expect(types(4, 0)).toEqual(['credit.updated', 'credit.balance_at_zero']);
    expect(types(40, 0)).toEqual(['credit.updated', 'credit.low_balance', 'credit.balance_at_zero']);
    expect(types(1, 0, 0)).toEqual(['credit.updated', 'credit.low_balance', 'credit.balance_at_zero']);
    expect(types(0, 0)).toEqual([]);
    expect(creditBalanceEvents(balance(), undefined)).toEqual([]);
  });

  it('maps each ledger entry insert to credit.<type>_transaction_created with the transaction, aggregator_id included', () => {
    for (const type of ['topup', 'usage', 'expiration'] as const) {
      const item = entry(type);
      expect(creditTransactionEvents(undefined, item)).toEqual([{ type: `credit.${type}_transaction_created`, data: toCreditTransaction(item) }]);
      expect(creditTransactionEvents(item, { ...item })).toEqual([]);
    }
    expect(toCreditTransaction(entry('usage'))).toHaveProperty('aggregator_id', null);
    expect(toCreditTransaction(entry('usage'))).not.toHaveProperty('lot_id');
    expect(toCreditTransaction(entry('usage'))).not.toHaveProperty('pk');
  });

  it('is registered in mapChange by _type; lots and usage markers produce nothing', () => {
    expect(mapChange(undefined, balance() as never).map((e) => e.type)).toEqual(['credit.created']);
    expect(mapChange(undefined, entry('usage') as never).map((e) => e.type)).toEqual(['credit.usage_transaction_created']);
    expect(mapChange(undefined, lot('cdt_Z', 5, null) as never)).toEqual([]);
    expect(mapChange(undefined, { pk, sk: 'EVT#e1', _type: 'credit_usage_event' })).toEqual([]);
  });
});
