import fc from 'fast-check';
import { makeCtx } from '../../shared/context';
import { migrates } from '../../shared/domain/plans/eligibility';
import { billingStep } from '../../shared/domain/subscriptions/billing';
import { planVersionFields } from '../../shared/domain/subscriptions/change';
import { periodStart, type StoredSubscriptionProduct, type SubscriptionItem } from '../../shared/domain/subscriptions/subscription';

const ctx = makeCtx('ws_u', 'test');
const monthly = { period: 'months', count: 1 } as const;
const feeProduct = (id: string, amount: number): StoredSubscriptionProduct => ({
  id, product_id: `itm_${id}`, price_configuration_id: `prc_${id}`, name: id, product_type: 'flat_fee', quantity: 1, billing_interval: monthly,
  fee_timing: 'in_advance', aggregator_id: null, unit_name: null, price: { type: 'fee', prices: [{ amount }] } as never, description: null,
});
const OLD = feeProduct('old', 1_000);
const NEW = feeProduct('new', 1_500);

const subscriptionOn = (start: string): SubscriptionItem => ({
  pk: 'WS#ws_u#SUB#sub_u', sk: 'SUB', _type: 'subscription', _version: 0, id: 'sub_u', customer_id: 'cus_1', status: 'active', currency: 'EUR',
  invoicing_entity_id: 'ive_1', quote_id: null, plan_id: 'plan_1', plan_version_id: 'plv_1', checkout_session_id: null, billing_interval: monthly,
  products: [OLD], starts_at: start, current_period_started_at: start, current_period_ends_at: start, next_billing_at: start,
  cancel_at_period_end: false, cancelled_at: null, ends_at: null, created_at: start, updated_at: start, billing_index: 0, end_index: null,
});

const migration = { id: 'plm_01', plan_id: 'plan_1', from_version_id: null, to_version_id: 'plv_2' };

/** What a migration at the next period writes (change.ts), when `migrates` lets it: the new products scheduled, marked. */
const migrated = (s: SubscriptionItem): SubscriptionItem =>
  migrates(migration, s)
    ? { ...s, scheduled_products: [NEW], ...planVersionFields(true, { plan_version_id: 'plv_2', migration_id: migration.id, applies: () => true }), _version: s._version + 1 }
    : s;

describe('a migration at the next period', () => {
  it('bills every period exactly once: on the old version up to the period it was made in, on the new one after, however often it is applied', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 14 }), fc.nat(), fc.integer({ min: 1, max: 3 }), fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }),
        (periods, at, applications, startDate) => {
          const start = startDate.toISOString();
          const migratedIn = at % (periods - 1); // the period during which the migration runs
          let s = subscriptionOn(start);
          const billed: Array<[string | null, number]> = [];
          for (let j = 0; j <= periods; j++) {
            const step = billingStep(ctx, s, periodStart(s, j));
            billed.push(...step.lines.map((l) => [l.period_starts_at, l.gross] as [string | null, number]));
            s = step.next;
            if (j === migratedIn) for (let k = 0; k < applications; k++) s = migrated(s);
          }
          const expected = Array.from({ length: periods + 1 }, (_, j): [string, number] => [periodStart(s, j), j <= migratedIn ? 1_000 : 1_500]);
          expect(billed).toEqual(expected);
          expect([s.plan_version_id, s.scheduled_plan_version_id ?? null, s.last_migration_id]).toEqual(['plv_2', null, migration.id]);
        },
      ),
    );
  });
});
