import { describe, expect, test } from '@jest/globals';
import { keepIdentities } from '../../shared/domain/subscriptions/prepare';
import type { StoredSubscriptionProduct } from '../../shared/domain/subscriptions/subscription';

/** A stored product of a subscription; metered (an aggregator, billed in arrears) unless said otherwise. */
const product = (over: Partial<StoredSubscriptionProduct>): StoredSubscriptionProduct => ({
  id: 'sp_new', product_id: 'itm_calls', price_configuration_id: 'prc_calls', name: 'Calls', product_type: 'dynamic', quantity: 1,
  billing_interval: { period: 'months', count: 1 }, fee_timing: 'in_arrears', aggregator_id: 'agg_new', unit_name: null,
  price: {} as StoredSubscriptionProduct['price'], description: null, ...over,
} as StoredSubscriptionProduct);

describe('a changed product list keeps what each kept product carries', () => {
  const before = [product({ id: 'sp_1', aggregator_id: 'agg_1', invoiced_usage: [], min_committed_count: 1_000 })];

  test('a kept metered product keeps its id, meter, invoiced usage and committed count (billing terms)', () => {
    const [kept] = keepIdentities(before, [product({ quantity: 2 })]);
    expect(kept).toMatchObject({ id: 'sp_1', aggregator_id: 'agg_1', invoiced_usage: [], min_committed_count: 1_000, quantity: 2 });
  });

  test('a product replaced by another configuration starts afresh, without a committed count', () => {
    const [replaced] = keepIdentities(before, [product({ price_configuration_id: 'prc_other' })]);
    expect(replaced!.id).toBe('sp_new');
    expect(replaced!.min_committed_count).toBeUndefined();
  });
});
