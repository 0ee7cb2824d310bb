import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { invoiceFacts, type Delta, type InvoiceFacts } from '../../shared/domain/analytics/facts';
import { MOVEMENTS, subscriptionMrr, type CustomerRevenue, type SubscriptionFacts } from '../../shared/domain/analytics/mrr';
import { planChange, scopeKey } from '../../shared/domain/analytics/plan';
import { recogniseByMonth } from '../../shared/domain/analytics/recognition';

/**
 * The analytics as the stream keeps them (plan.ts applied change after change, each delivery of a change counted once,
 * as apply.ts's markers make it), against a recomputation from the raw documents and subscriptions of random histories:
 * mid-period changes, pauses, cancellations, voids, credit notes, payments and refunds.
 */
const DAYS = 40;
const dayOf = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
const iso = (n: number) => `${dayOf(n)}T00:00:00.000Z`;

const subscriptionVersion = (id: number) =>
  fc.record({
    status: fc.constantFrom('pending', 'trialing', 'active', 'active', 'paused', 'cancelled'),
    quantity: fc.integer({ min: 0, max: 4 }),
    amount: fc.constantFrom(1_000, 2_999, 12_000),
    period: fc.constantFrom('months', 'years', 'weeks'),
    count: fc.constantFrom(1, 3),
    metered: fc.boolean(),
  }).map((v): SubscriptionFacts => ({
    status: v.status as SubscriptionFacts['status'], customer_id: `cus_${id % 3}`, currency: 'EUR', invoicing_entity_id: `ent_${id % 2}`,
    products: [
      { billing_interval: { period: v.period, count: v.count }, product_type: 'flat_fee', quantity: v.quantity, price: { type: 'fee', prices: [{ amount: v.amount }] } },
      ...(v.metered ? [{ billing_interval: { period: 'months', count: 1 }, product_type: 'dynamic', quantity: 7, price: { type: 'fee', prices: [{ amount: 500 }] } }] : []),
    ] as unknown as SubscriptionFacts['products'],
  }));

const day = fc.integer({ min: 0, max: DAYS - 1 });
const invoiceVersion = (id: number) =>
  fc.record({
    type: fc.constantFrom('invoice', 'invoice', 'credit_note', 'document'),
    status: fc.constantFrom('draft', 'to_pay', 'grace_period', 'partially_paid', 'paid', 'voided', 'uncollectible'),
    total: fc.integer({ min: 0, max: 50_000 }), due: fc.integer({ min: 0, max: 50_000 }), emitted: day, dueIn: fc.integer({ min: 0, max: 120 }),
    lines: fc.array(fc.record({ amount: fc.integer({ min: -5_000, max: 40_000 }), start: fc.option(day), length: fc.integer({ min: 1, max: 400 }) }), { maxLength: 3 }),
    transactions: fc.array(fc.record({ type: fc.constantFrom('payment', 'refund'), status: fc.constantFrom('succeeded', 'failed', 'pending'), amount: fc.integer({ min: 1, max: 20_000 }), at: day }), { maxLength: 3 }),
  }).map((v): InvoiceFacts => ({
    type: v.type as InvoiceFacts['type'], status: v.status as InvoiceFacts['status'], currency: 'EUR', invoicing_entity_id: `ent_${id % 2}`,
    total_amount: v.total, amount_due: v.due, emitted_at: iso(v.emitted), due_at: iso(v.emitted - DAYS + v.dueIn),
    line_items: v.lines.map((l) => ({ amount_excluding_tax: l.amount, period_starts_at: l.start === null ? null : iso(l.start), period_ends_at: l.start === null ? null : iso(l.start + l.length) })),
    transactions: v.transactions.map((t, i) => ({ id: `tr_${i}`, type: t.type, status: t.status, amount: t.amount, currency: 'EUR', process_at: iso(t.at) })) as unknown as InvoiceFacts['transactions'],
  }));

interface Change { changeId: string; type: 'subscription' | 'invoice'; item: number; day: number; after?: unknown }

/** A history: each change names an item and its next version (or its removal, for documents), on a day; in time order. */
const history = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 4 }).chain((item) => fc.record({ type: fc.constant('subscription' as const), item: fc.constant(item), day, after: subscriptionVersion(item) })),
      fc.integer({ min: 0, max: 4 }).chain((item) => fc.record({ type: fc.constant('invoice' as const), item: fc.constant(item), day, after: fc.option(invoiceVersion(item), { freq: 6 }) })),
    ),
    { maxLength: 40 },
  )
  .map((changes) => changes.sort((a, b) => a.day - b.day).map((c, i): Change => ({ ...c, changeId: `chg_${i}`, after: c.after ?? undefined })));

/** The stream's analytics: every change planned against the customers' states and ADDed; a redelivery changes nothing. */
function streamed(changes: readonly Change[], deliveries: readonly number[]) {
  const items = new Map<string, Delta>();
  const states = new Map<string, CustomerRevenue>();
  const applied = new Set<string>();
  const current = new Map<string, unknown>();
  const perChange: Delta[][] = [];
  const deliver = (change: Change, before: unknown) => {
    if (applied.has(change.changeId)) return;
    applied.add(change.changeId);
    const plan = planChange(change.type, before, change.after, dayOf(change.day), (scope) => states.get(scopeKey(scope)) ?? { mrr: 0, ever_active: false });
    for (const { scope, after } of plan.customers) states.set(scopeKey(scope), after);
    perChange.push(plan.deltas);
    for (const d of plan.deltas) {
      const key = `${d.family}|${d.entity}|${d.day}`;
      const entry = items.get(key) ?? { ...d, values: {} };
      for (const [name, value] of Object.entries(d.values)) entry.values[name] = (entry.values[name] ?? 0) + value;
      items.set(key, entry);
    }
  };
  changes.forEach((change, i) => {
    const key = `${change.type}|${change.item}`;
    const before = current.get(key);
    deliver(change, before);
    for (let again = 0; again < (deliveries[i] ?? 0); again++) deliver(change, before); // a retried batch
    current.set(key, change.after);
  });
  return { items: [...items.values()], final: current, perChange };
}

const total = (items: readonly Delta[], family: string, part: string, filter: (d: Delta) => boolean = () => true) =>
  items.filter((d) => d.family === family && filter(d)).reduce((a, d) => a + (d.values[part] ?? 0), 0);

const ISSUED = ['to_pay', 'grace_period', 'partially_paid', 'paid', 'uncollectible'];

describe('revenue analytics = a recomputation from the raw documents and subscriptions (random histories)', () => {
  it('invoiced, credited, collected, refunded, outstanding and recognised revenue, per entity and day', () => {
    fc.assert(
      fc.property(history, fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 40 }), (changes, deliveries) => {
        const { items, final } = streamed(changes, deliveries);
        const documents = [...final.entries()].filter(([k, v]) => k.startsWith('invoice') && v).map(([, v]) => v as InvoiceFacts);
        const expected = new Map<string, number>();
        const add = (family: string, entity: string, day: string, part: string, amount: number) => {
          const key = `${family}|${entity}|${day}|${part}`;
          expected.set(key, (expected.get(key) ?? 0) + amount);
        };
        for (const doc of documents.filter((i) => i.type !== 'document')) {
          const entity = doc.invoicing_entity_id;
          for (const t of doc.transactions.filter((t) => t.status === 'succeeded')) add('BIL', entity, t.process_at.slice(0, 10), t.type === 'refund' ? 'refunded' : 'collected', t.amount);
          if (!ISSUED.includes(doc.status)) continue;
          const credit = doc.type === 'credit_note';
          add('BIL', entity, doc.emitted_at.slice(0, 10), credit ? 'credited' : 'invoiced', doc.total_amount);
          if (!credit && ['to_pay', 'grace_period', 'partially_paid'].includes(doc.status) && doc.amount_due > 0) add('AR', entity, doc.due_at.slice(0, 10), 'outstanding', doc.amount_due);
          for (const line of doc.line_items) {
            const parts = line.period_starts_at ? recogniseByMonth(line.amount_excluding_tax, line.period_starts_at, line.period_ends_at!) : new Map([[doc.emitted_at.slice(0, 7), line.amount_excluding_tax]]);
            for (const [month, amount] of parts) add('REC', entity, `${month}-01`, 'recognised', credit ? -amount : amount);
          }
        }
        const kept = new Map<string, number>();
        for (const d of items.filter((x) => x.family !== 'MRR')) for (const [part, v] of Object.entries(d.values)) kept.set(`${d.family}|${d.entity}|${d.day}|${part}`, v);
        const nonZero = (m: Map<string, number>) => Object.fromEntries([...m].filter(([, v]) => v !== 0).sort());
        expect(nonZero(kept)).toEqual(nonZero(expected));
      }),
      { numRuns: 150 },
    );
  });

  it('MRR, active customers and subscriptions each day equal the subscriptions’ versions of that day; movements sum to the change of MRR', () => {
    fc.assert(
      fc.property(history, fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 40 }), (changes, deliveries) => {
        const { items, perChange } = streamed(changes, deliveries);
        const subs = changes.filter((c) => c.type === 'subscription');
        let newCustomers = 0, churned = 0;
        const everActive = new Set<string>();
        const versions = new Map<number, SubscriptionFacts>();
        for (let n = 0; n < DAYS; n++) {
          for (const change of subs.filter((c) => c.day === n)) {
            const scopeMrr = (customer: string, entity: string) => [...versions.values()].filter((v) => v.customer_id === customer && v.invoicing_entity_id === entity).reduce((a, v) => a + subscriptionMrr(v), 0);
            const sub = change.after as SubscriptionFacts;
            const was = scopeMrr(sub.customer_id, sub.invoicing_entity_id);
            versions.set(change.item, sub);
            const now = scopeMrr(sub.customer_id, sub.invoicing_entity_id);
            const scope = `${sub.customer_id}|${sub.invoicing_entity_id}`;
            if (was === 0 && now > 0 && !everActive.has(scope)) newCustomers++;
            if (now > 0) everActive.add(scope);
            if (was > 0 && now === 0) churned++;
          }
          const all = [...versions.values()];
          const scopes = new Set(all.map((v) => `${v.customer_id}|${v.invoicing_entity_id}`));
          const upTo = (d: Delta) => d.day <= dayOf(n);
          const mrr = all.reduce((a, v) => a + subscriptionMrr(v), 0);
          const customers = [...scopes].filter((s) => all.filter((v) => `${v.customer_id}|${v.invoicing_entity_id}` === s).reduce((a, v) => a + subscriptionMrr(v), 0) > 0).length;
          const subscriptions = all.filter((v) => v.status === 'active').length;
          expect(total(items, 'MRR', 'mrr', upTo)).toBe(mrr);
          expect(total(items, 'MRR', 'active_customers', upTo)).toBe(customers);
          expect(total(items, 'MRR', 'active_subscriptions', upTo)).toBe(subscriptions);
        }
        expect(total(items, 'MRR', 'churned_customers')).toBe(churned);
        expect(perChange.flat().filter((d) => (d.values.new ?? 0) > 0).length).toBe(newCustomers);
        for (const deltas of perChange) {
          for (const d of deltas.filter((x) => x.family === 'MRR')) expect(MOVEMENTS.reduce((a, m) => a + (d.values[m] ?? 0), 0)).toBe(d.values.mrr ?? 0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a document stands for what its facts say: a void takes its amounts back out of the day it was issued', () => {
    const invoice: InvoiceFacts = {
      type: 'invoice', status: 'to_pay', currency: 'EUR', invoicing_entity_id: 'ent_0', total_amount: 12_000, amount_due: 12_000,
      emitted_at: '2026-01-15T09:00:00.000Z', due_at: '2026-02-14T09:00:00.000Z', line_items: [], transactions: [],
    };
    const issued = planChange('invoice', undefined, invoice, '2026-01-15', () => ({ mrr: 0, ever_active: false })).deltas;
    const voided = planChange('invoice', invoice, { ...invoice, status: 'voided' }, '2026-01-20', () => ({ mrr: 0, ever_active: false })).deltas;
    expect(issued).toEqual(invoiceFacts(invoice));
    expect(voided).toHaveLength(2);
    expect(voided).toEqual(expect.arrayContaining([
      { family: 'AR', currency: 'EUR', entity: 'ent_0', day: '2026-02-14', values: { outstanding: -12_000 } },
      { family: 'BIL', currency: 'EUR', entity: 'ent_0', day: '2026-01-15', values: { invoiced: -12_000 } },
    ]));
  });
});
