import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { pricedProduct } from '../support/subscriptions';

/** The invoicing entity's `portal_settings` (docs/hosted-pages.md, "Portal settings"), through its routes. */
let api: TestApi;
let client: Client;
beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
});
afterAll(() => api.close());

const DEFAULTS = {
  allow_cancel: true, cancel_mode: 'end_of_period', allow_plan_change: false, allowed_price_configuration_ids: [], allow_quantity_change: false,
  allow_billing_details_update: true,
};

describe('portal_settings of an invoicing entity', () => {
  it('answers the defaults until set, keeps what is set and fills the rest with the defaults', async () => {
    const entity = await withEntity(client);
    expect(entity.portal_settings).toEqual(DEFAULTS);
    const plan = await pricedProduct(client, 'flat_fee');
    const settings = { allow_plan_change: true, allowed_price_configuration_ids: [plan.price_configuration_id], cancel_mode: 'immediately' };
    const updated = await client.put(`/v1/invoicing-entities/${entity.id}`, { portal_settings: settings });
    expect([updated.status, updated.body.portal_settings]).toEqual([200, { ...DEFAULTS, ...settings }]);
    expect((await client.get(`/v1/invoicing-entities/${entity.id}`)).body.portal_settings).toEqual({ ...DEFAULTS, ...settings });
    // Replaced as a whole: what a new update leaves out is back to its default.
    expect((await client.put(`/v1/invoicing-entities/${entity.id}`, { portal_settings: { allow_cancel: false } })).body.portal_settings).toEqual({ ...DEFAULTS, allow_cancel: false });
    const created = await client.post('/v1/invoicing-entities', { name: 'Other', country: 'DE', currency: 'EUR', portal_settings: { allow_quantity_change: true } });
    expect([created.status, created.body.portal_settings]).toEqual([201, { ...DEFAULTS, allow_quantity_change: true }]);
  });

  it('refuses a malformed member (400), a plan change without plans and a price configuration not of the workspace (422), changing nothing', async () => {
    const entity = await withEntity(client);
    const stranger = await api.client();
    const foreign = await pricedProduct(stranger, 'flat_fee');
    const archived = await pricedProduct(client, 'flat_fee');
    expect((await client.put(`/v1/price-configurations/${archived.price_configuration_id}/archive`)).status).toBe(200);
    const cases: Array<[unknown, number, string]> = [
      [{ cancel_mode: 'tomorrow' }, 400, 'invalid_request'],
      [{ allow_cancel: 'yes' }, 400, 'invalid_request'],
      [{ colour: 'blue' }, 400, 'invalid_request'],
      [{ allowed_price_configuration_ids: Array.from({ length: 21 }, (_, i) => `prc_${i}`) }, 400, 'invalid_request'],
      [{ allow_plan_change: true }, 422, 'portal_prices_required'],
      [{ allow_plan_change: true, allowed_price_configuration_ids: [foreign.price_configuration_id] }, 422, 'price_not_found'],
      [{ allowed_price_configuration_ids: ['prc_missing'] }, 422, 'price_not_found'],
      [{ allow_plan_change: true, allowed_price_configuration_ids: [archived.price_configuration_id] }, 422, 'price_not_found'],
    ];
    for (const [settings, status, code] of cases) {
      const reply = await client.put(`/v1/invoicing-entities/${entity.id}`, { portal_settings: settings });
      expect([reply.status, reply.body.code]).toEqual([status, code]);
      expect(reply.body.message).toMatch(/portal_settings/);
    }
    const created = await client.post('/v1/invoicing-entities', { name: 'Other', country: 'DE', currency: 'EUR', portal_settings: { allow_plan_change: true } });
    expect([created.status, created.body.code]).toEqual([422, 'portal_prices_required']);
    expect((await client.get(`/v1/invoicing-entities/${entity.id}`)).body.portal_settings).toEqual(DEFAULTS);
  });
});
