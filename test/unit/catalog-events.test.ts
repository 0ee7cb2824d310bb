import { makeCtx } from '../../shared/context';
import { priceConfigurationEvents, productEvents } from '../../shared/domain/catalog/events';
import type { PriceConfigurationItem } from '../../shared/domain/catalog/price-configuration';
import type { ProductItem } from '../../shared/domain/catalog/product';

const ctx = makeCtx('ws_catalog_events', 'req');
const t0 = '2026-04-01T00:00:00.000Z';
const t1 = '2026-04-02T00:00:00.000Z';

const product = (): ProductItem => ({
  pk: `WS#${ctx.workspaceId}#ITM#itm_1`, sk: 'ITM', _type: 'product', _version: 0, id: 'itm_1', name: 'Seats', type: 'seat', status: 'active',
  description: null, description_display_interval_dates: false, public_description: null, translations: null, properties: null,
  custom_properties: {}, accounting: {}, is_available_on_demand: true, is_available_on_subscription: true,
  created_at: t0, updated_at: t0, deleted_at: null,
});

const config = (): PriceConfigurationItem => ({
  pk: `WS#${ctx.workspaceId}#PRC#prc_1`, sk: 'PRC', _type: 'price_configuration', _version: 0, id: 'prc_1', product_id: 'itm_1',
  price_book_id: null, status: 'active', currency: 'EUR', country: null, plan_id: null, billing_interval: { period: 'once' },
  commitment_interval: { period: 'all' }, type: 'fee', prices: [{ id: 'pri_1', amount: 100 }], created_at: t0, updated_at: t0, archived_at: null,
});

const types = (events: { type: string }[]) => events.map((e) => e.type);

describe('product events', () => {
  it('created, updated, archived, unarchived; nothing for a version bump alone or a deletion', () => {
    expect(types(productEvents(undefined, product()))).toEqual(['product.created']);
    expect(productEvents(undefined, product())[0]!.data).not.toHaveProperty('price_configurations');
    expect(types(productEvents(product(), { ...product(), name: 'Users', updated_at: t1 }))).toEqual(['product.updated']);
    expect(types(productEvents(product(), { ...product(), status: 'archived', updated_at: t1 }))).toEqual(['product.archived']);
    expect(types(productEvents({ ...product(), status: 'archived' }, product()))).toEqual(['product.unarchived']);
    expect(types(productEvents(product(), { ...product(), _version: 1 }))).toEqual([]);
    expect(types(productEvents(product(), { ...product(), deleted_at: t1 }))).toEqual([]);
  });
});

describe('price configuration events', () => {
  it('created, updated (prices replaced), archived', () => {
    expect(types(priceConfigurationEvents(undefined, config()))).toEqual(['price_configuration.created']);
    expect(types(priceConfigurationEvents(config(), { ...config(), prices: [{ id: 'pri_2', amount: 200 }], updated_at: t1 }))).toEqual(['price_configuration.updated']);
    expect(types(priceConfigurationEvents(config(), { ...config(), status: 'archived', archived_at: t1, updated_at: t1 }))).toEqual(['price_configuration.archived']);
  });
});
