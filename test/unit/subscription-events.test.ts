import { makeCtx } from '../../shared/context';
import { mapChange } from '../../shared/domain/events/map-change';
import { billingStep } from '../../shared/domain/subscriptions/billing';
import { SUBSCRIPTION_STATUSES, type SubscriptionItem } from '../../shared/domain/subscriptions/subscription';
import { SUBSCRIPTION_STATUS_VALUES } from '../../shared/schemas/list-filters';

const ctx = makeCtx('ws_sub', 'req');
const product = (over: Partial<SubscriptionItem['products'][number]> = {}): SubscriptionItem['products'][number] => ({
  id: 'subi_1', product_id: 'itm_1', price_configuration_id: 'prc_1', name: 'Platform', product_type: 'flat_fee', quantity: 1,
  billing_interval: { period: 'months', count: 1 }, fee_timing: 'in_advance', price: { type: 'fee', prices: [{ id: 'pri_1', amount: 1_000 }] },
  description: null, ...over,
});
const subscription = (over: Partial<SubscriptionItem> = {}): SubscriptionItem => ({
  pk: 'WS#ws_sub#SUB#sub_1', sk: 'SUB', _type: 'subscription', _version: 0, id: 'sub_1', customer_id: 'cus_1', status: 'pending', currency: 'EUR',
  invoicing_entity_id: 'ive_1', quote_id: null, plan_id: null, checkout_session_id: null, billing_interval: { period: 'months', count: 1 },
  products: [product()], starts_at: '2026-01-31T10:00:00.000Z', current_period_started_at: '2026-01-31T10:00:00.000Z',
  current_period_ends_at: '2026-02-28T10:00:00.000Z', next_billing_at: '2026-01-31T10:00:00.000Z', cancel_at_period_end: false, cancelled_at: null,
  ends_at: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', billing_index: 0, end_index: null, ...over,
});
const types = (before: object | undefined, after: object | undefined) => mapChange(before as never, after as never).map((e) => e.type);

describe('mapChange: subscriptions', () => {
  it('tells a new subscription, activated too when it starts at once', () => {
    expect(types(undefined, subscription())).toEqual(['subscription.created']);
    expect(types(undefined, subscription({ status: 'active' }))).toEqual(['subscription.created', 'subscription.activated']);
  });

  it('tells activation, cancellation, and changes of products or of the cancellation at period end', () => {
    const active = subscription({ status: 'active' });
    expect(types(subscription(), active)).toEqual(['subscription.activated']);
    expect(types(active, { ...active, status: 'cancelled', cancelled_at: 'x', ends_at: 'x' })).toEqual(['subscription.cancelled']);
    expect(types(active, { ...active, cancel_at_period_end: true, cancelled_at: 'x', ends_at: 'y' })).toEqual(['subscription.updated', 'subscription.cancellation_scheduled']);
    expect(types(active, { ...active, products: [product({ quantity: 4 })] })).toEqual(['subscription.updated']);
  });

  it('tells a pause and a resume (not as updates), and the trial ending and ended', () => {
    const active = subscription({ status: 'active' });
    const paused = { ...active, status: 'paused' as const, paused_at: 'x', pause_billing: 'none' as const, _version: 1 };
    expect(types(active, paused)).toEqual(['subscription.paused']);
    expect(types(paused, { ...paused, status: 'active', paused_at: null, pause_billing: null })).toEqual(['subscription.resumed', 'subscription.reactivated']);
    const trialing = subscription({ status: 'trialing', trial_ends_at: '2026-02-14T10:00:00.000Z', trial_ending_notified: false });
    expect(types(trialing, { ...trialing, trial_ending_notified: true })).toEqual(['subscription.trial_ending']);
    const told = { ...trialing, trial_ending_notified: true };
    expect(types(told, { ...told, status: 'active' })).toEqual(['subscription.trial_ended', 'subscription.activated']);
    expect(types(undefined, trialing)).toEqual(['subscription.created']);
  });

  it('tells a change scheduled for the next period, and its undo, as updates', () => {
    const active = subscription({ status: 'active' });
    const scheduled = { ...active, scheduled_products: [product({ quantity: 9 })] };
    expect(types(active, scheduled)).toEqual(['subscription.updated']);
    expect(types(scheduled, active)).toEqual(['subscription.updated']);
  });

  it('does not tell a billing run moving the period as an update', () => {
    const active = subscription({ status: 'active' });
    const billed = { ...active, billing_index: 1, next_billing_at: 'b', current_period_started_at: 'a', current_period_ends_at: 'b', updated_at: 'now', _version: 1 };
    expect(types(active, billed)).toEqual([]);
    expect(types(active, { ...active, products: [product({ billed: true })] })).toEqual([]);
  });

  it('gives the public subscription as data', () => {
    const [event] = mapChange(undefined, subscription() as never);
    expect(event!.data).toMatchObject({ id: 'sub_1', status: 'pending', products: [{ id: 'subi_1', fee_timing: 'in_advance' }] });
    for (const internal of ['pk', 'billing_index', 'end_index', 'gsi4sk', 'lf']) expect(event!.data).not.toHaveProperty(internal);
    expect((event!.data as { products: object[] }).products[0]).not.toHaveProperty('price');
  });

  it('lists the same statuses in the domain and in the schemas', () => {
    expect([...SUBSCRIPTION_STATUS_VALUES]).toEqual([...SUBSCRIPTION_STATUSES]);
  });
});

describe('billingStep: one billing date of a subscription', () => {
  const now = '2026-01-31T10:00:01.000Z';
  const usage = product({ id: 'subi_2', product_id: 'itm_2', name: 'API calls', product_type: 'dynamic', quantity: 5, fee_timing: 'in_arrears', price: { type: 'volume', prices: [{ id: 'pri_2', from: 1, to: null, amount: 200, unit_count: 1, on_tier_incomplete: 'pro_rata' }] } });
  const setup = product({ id: 'subi_3', product_id: 'itm_3', name: 'Setup', billing_interval: { period: 'once' }, price: { type: 'fee', prices: [{ id: 'pri_3', amount: 5_000 }] } });
  const view = (step: ReturnType<typeof billingStep>) => step.lines.map((l) => [l.name, l.gross, l.period_starts_at, l.period_ends_at, l.revenue_type]);

  it('bills in advance and one-off products at the first date, and activates', () => {
    const step = billingStep(ctx, subscription({ products: [product(), usage, setup] }), now);
    expect(view(step)).toEqual([
      ['Platform', 1_000, '2026-01-31T10:00:00.000Z', '2026-02-28T10:00:00.000Z', 'recurring'],
      ['Setup', 5_000, null, null, 'one_off'],
    ]);
    expect(step.period).toEqual({ starts_at: '2026-01-31T10:00:00.000Z', ends_at: '2026-02-28T10:00:00.000Z' });
    expect(step.next).toMatchObject({ status: 'active', billing_index: 1, next_billing_at: '2026-02-28T10:00:00.000Z', _version: 1, gsi4sk: '2026-02-28T10:00:00.000Z#subscription_billing#sub_1#ive_1' });
    expect(step.next.products.find((p) => p.id === 'subi_3')!.billed).toBe(true);
  });

  it('counts periods from the start, so month ends do not drift (Jan 31 → Feb 28 → Mar 31)', () => {
    const step = billingStep(ctx, subscription({ status: 'active', billing_index: 2, products: [product(), usage, { ...setup, billed: true }] }), now);
    expect(view(step)).toEqual([
      ['Platform', 1_000, '2026-03-31T10:00:00.000Z', '2026-04-30T10:00:00.000Z', 'recurring'],
      ['API calls', 1_000, '2026-02-28T10:00:00.000Z', '2026-03-31T10:00:00.000Z', 'usage'],
    ]);
    expect(step.next).toMatchObject({ current_period_started_at: '2026-03-31T10:00:00.000Z', current_period_ends_at: '2026-04-30T10:00:00.000Z' });
  });

  it('bills only arrears at the end date of a cancellation at period end, then cancels', () => {
    const ending = subscription({ status: 'active', billing_index: 1, end_index: 1, cancel_at_period_end: true, products: [product(), usage], gsi4pk: 'p', gsi4sk: 's' });
    const step = billingStep(ctx, ending, now);
    expect(view(step)).toEqual([['API calls', 1_000, '2026-01-31T10:00:00.000Z', '2026-02-28T10:00:00.000Z', 'usage']]);
    expect(step.period).toEqual({ starts_at: '2026-01-31T10:00:00.000Z', ends_at: '2026-02-28T10:00:00.000Z' });
    expect(step.next).toMatchObject({ status: 'cancelled', next_billing_at: null, lf: { status: 'cancelled' } });
    expect(step.next).not.toHaveProperty('gsi4sk');
  });

  it('leaves out products of quantity 0', () => {
    expect(billingStep(ctx, subscription({ products: [product({ quantity: 0 })] }), now).lines).toEqual([]);
  });
});
