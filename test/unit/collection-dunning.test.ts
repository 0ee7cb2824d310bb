import { useClock } from '../../shared/clock';
import { makeCtx } from '../../shared/context';
import { afterFailure, afterOutsidePayment, firstAttempt, rearmed, type Dunned } from '../../shared/domain/collection/dunning';
import { resolveCollectionMethod } from '../../shared/domain/collection/payable';
import { assertRetrySchedule, DEFAULT_RETRY_SCHEDULE } from '../../shared/domain/collection/settings';
import { mapChange } from '../../shared/domain/events/map-change';
import type { InvoiceItem } from '../../shared/domain/invoices/invoice';

const ctx = makeCtx('ws_col', 'req');
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const HOUR = 3_600_000;
let now = T0;
const restore = useClock({ now: () => new Date(now) });
afterAll(() => restore());

const invoice = (over: Partial<Dunned> = {}): Dunned =>
  ({
    pk: 'WS#ws_col#INV#inv_1', sk: 'INV', _type: 'invoice', _version: 3, id: 'inv_1', customer_id: 'cus_1', type: 'invoice', status: 'to_pay',
    total_amount: 1_200, amount_due: 1_200, due_at: new Date(T0 + 24 * HOUR).toISOString(), subscription_id: null, transactions: [],
    dunning: firstAttempt(new Date(T0).toISOString(), [...DEFAULT_RETRY_SCHEDULE], 'mark_uncollectible'), ...over,
  }) as unknown as Dunned;
const types = (before: InvoiceItem, after: InvoiceItem) => mapChange(before as never, after as never).map((e) => e.type);

describe('dunning', () => {
  it('resolves the collection method: invoice, then subscription, then customer, then automatic iff a default payment method', () => {
    expect(resolveCollectionMethod({ collection_method: null, current_payment_method_id: 'pm_1' })).toBe('automatic');
    expect(resolveCollectionMethod({ collection_method: null, current_payment_method_id: null })).toBe('manual');
    expect(resolveCollectionMethod({ collection_method: 'manual', current_payment_method_id: 'pm_1' })).toBe('manual');
    expect(resolveCollectionMethod({ collection_method: 'manual', current_payment_method_id: 'pm_1' }, 'automatic')).toBe('automatic');
    expect(resolveCollectionMethod({ collection_method: undefined, current_payment_method_id: 'pm_1' }, null)).toBe('automatic');
    expect(resolveCollectionMethod({ collection_method: 'automatic', current_payment_method_id: 'pm_1' }, 'automatic', 'manual')).toBe('manual');
    expect(resolveCollectionMethod({ collection_method: 'manual', current_payment_method_id: null }, 'manual', 'automatic')).toBe('automatic');
    expect(resolveCollectionMethod({ collection_method: null, current_payment_method_id: null }, 'automatic', null)).toBe('automatic');
  });

  it('counts each retry from the first failure, and after the last runs the final action in the same write', () => {
    now = T0;
    let item = afterFailure(ctx, invoice(), { attempt: 1, errorType: 'declined', remind: true }).item as Dunned;
    const at = (h: number) => new Date(T0 + h * HOUR).toISOString();
    expect(item.dunning).toMatchObject({ status: 'active', attempt: 1, started_at: at(0), next_attempt_at: at(2), reminder: { attempt: 1, phase: 'before_due' } });
    expect(item.gsi4sk).toBe(`${at(2)}#invoice_collect#inv_1`);
    const hours = [2, 12, 24, 72, 168];
    for (const [i, h] of hours.entries()) {
      now = T0 + h * HOUR;
      item = afterFailure(ctx, item, { attempt: i + 2, errorType: 'declined', remind: true }).item as Dunned;
      expect(item.dunning.next_attempt_at).toBe(i + 1 < hours.length ? at(hours[i + 1]!) : null);
    }
    expect(item).toMatchObject({ status: 'uncollectible', dunning: { status: 'exhausted', attempt: 6, reminder: { attempt: 6, phase: 'after_due' } } });
    expect(item.gsi4sk).toBeUndefined();
  });

  it('tells each failed attempt and each reminder once, from the write that records it', () => {
    now = T0;
    const before = invoice();
    const failed = afterFailure(ctx, before, { attempt: 1, errorType: 'declined', remind: true }).item;
    expect(types(before, failed)).toEqual(['invoice.payment_failed', 'invoice.reminder_due']);
    expect(types(failed, { ...failed, _version: 5 })).toEqual([]);
    const quiet = afterFailure(ctx, before, { attempt: 1, errorType: 'declined', remind: false }).item;
    expect(types(before, quiet)).toEqual(['invoice.payment_failed']);
  });

  it('stops at a payment outside the collection, and a new round starts at attempt 0, due now', () => {
    now = T0;
    const failed = afterFailure(ctx, invoice(), { attempt: 1, errorType: 'declined', remind: false }).item as Dunned;
    const stopped = afterOutsidePayment(ctx, failed).item as Dunned;
    expect(stopped.dunning).toMatchObject({ status: 'stopped', stopped_reason: 'manual_payment', next_attempt_at: null });
    expect(stopped.gsi4sk).toBeUndefined();
    now = T0 + HOUR;
    const again = rearmed(ctx, failed) as Dunned;
    expect(again.dunning).toMatchObject({ status: 'active', attempt: 0, started_at: null, next_attempt_at: new Date(now).toISOString() });
  });

  it('accepts only schedules that move forward, within 60 days', () => {
    expect(() => assertRetrySchedule([{ period: 'hours', count: 2 }, { period: 'days', count: 60 }])).not.toThrow();
    expect(() => assertRetrySchedule([{ period: 'hours', count: 24 }, { period: 'days', count: 1 }])).toThrow(/strictly after/);
    expect(() => assertRetrySchedule([{ period: 'hours', count: 1441 }])).toThrow(/60 days/);
  });
});
