import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;
let entity: { id: string };

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  entity = await withEntity(client);
});
afterAll(() => api.close());

const create = async (body: Record<string, unknown> = {}) => {
  const reply = await client.post('/v1/customers', { name: 'Jane Doe', ...body });
  expect(reply.status).toBe(201);
  return reply.body;
};

describe('POST /v1/customers', () => {
  it('creates a customer with every member of the spec and its defaults', async () => {
    const customer = await create({ currency: 'EUR', billing_email: 'jane@example.com', external_id: 'crm-1' });
    expect(customer.id).toMatch(/^cus_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(customer).toMatchObject({
      name: 'Jane Doe', status: 'active', currency: 'EUR', invoicing_entity_id: entity.id, type: null,
      tax_ids: [], vat_number: null, vat_number_valid: false, country: null, subscriptions: [], deleted_at: null,
      billing_email: 'jane@example.com', external_id: 'crm-1', custom_properties: {}, invoice_emails: [],
    });
    expect(customer.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const fetched = await client.get(`/v1/customers/${customer.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(customer);
  });

  it('maps deprecated members onto their replacements and keeps them in responses', async () => {
    const customer = await create({ country: 'DE', vat_number: 'DE123456789', vat_rate_custom: 7 });
    expect(customer.billing_address.country).toBe('DE');
    expect(customer.country).toBe('DE');
    expect(customer.tax_ids).toEqual([{ value: 'DE123456789', status: 'unverified' }]);
    expect(customer.vat_number).toBe('DE123456789');
    expect(customer.tax_rate_custom).toBe(7);
    expect(customer.vat_rate_custom).toBe(7);
  });

  it('lets the replacement win when a request has both', async () => {
    const customer = await create({ country: 'DE', billing_address: { country: 'FR', city: 'Paris' }, vat_rate_custom: 5, tax_rate_custom: 20 });
    expect(customer.country).toBe('FR');
    expect(customer.tax_rate_custom).toBe(20);
  });

  it.each([
    [{ type: 'automatically_created' }, 'body.type'],
    [{ tax_ids: [{ value: 'A' }, { value: 'B' }] }, 'body.tax_ids'],
    [{ tax_rate_custom: 101 }, 'body.tax_rate_custom'],
    [{ tax_rate_custom: -1 }, 'body.tax_rate_custom'],
    [{ currency: 'EURO' }, 'body.currency'],
    [{ billing_email: 'not-an-email' }, 'body.billing_email'],
    [{ timezone: 'Mars/Olympus' }, 'body.timezone'],
    [{ unknown_member: 1 }, 'body.unknown_member'],
  ])('rejects %j with a 400 naming %s', async (body, path) => {
    const reply = await client.post('/v1/customers', { name: 'X', ...body });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('invalid_request');
    expect(reply.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(reply.body.request_id).toEqual(expect.any(String));
  });

  it('requires a name', async () => {
    const reply = await client.post('/v1/customers', {});
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toContainEqual({ path: 'body.name', message: 'is required' });
  });

  it('rejects an unknown or deleted invoicing entity with a 422', async () => {
    const reply = await client.post('/v1/customers', { name: 'X', invoicing_entity_id: 'ive_unknown' });
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe('invoicing_entity_not_found');
  });

  it('applies the entity’s forced customer type, and refuses another', async () => {
    const forced = (await client.post('/v1/invoicing-entities', { name: 'B2B', country: 'FR', currency: 'EUR', forced_customer_type: 'corporate' })).body;
    const adopted = await create({ invoicing_entity_id: forced.id });
    expect(adopted.type).toBe('corporate');
    const refused = await client.post('/v1/customers', { name: 'X', invoicing_entity_id: forced.id, type: 'person' });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('customer_type_forced');
  });

  it('asks for an invoicing entity first in a workspace that has none', async () => {
    const fresh = await api.client();
    const reply = await fresh.post('/v1/customers', { name: 'X' });
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe('invoicing_entity_required');
  });
});

describe('PUT /v1/customers/{id}', () => {
  it('keeps omitted members, clears nullable members given as null', async () => {
    const customer = await create({ external_id: 'e-1', billing_email: 'a@example.com', language: 'fr', custom_payment_delay: 15 });
    const reply = await client.put(`/v1/customers/${customer.id}`, { external_id: null, name: 'Renamed' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ name: 'Renamed', external_id: null, billing_email: 'a@example.com', language: 'fr', custom_payment_delay: 15 });
    expect(reply.body.updated_at >= customer.updated_at).toBe(true);
    expect((await client.get(`/v1/customers/${customer.id}`)).body).toEqual(reply.body);
  });

  it('maps payment_method_type onto current_payment_method_type', async () => {
    const customer = await create();
    const reply = await client.put(`/v1/customers/${customer.id}`, { payment_method_type: 'transfer' });
    expect(reply.body.current_payment_method_type).toBe('transfer');
  });

  it('refuses a payment method the customer has not saved', async () => {
    const customer = await create();
    const reply = await client.put(`/v1/customers/${customer.id}`, { payment_method_id: 'pm_unknown' });
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe('payment_method_not_found');
    expect((await client.get(`/v1/customers/${customer.id}`)).body.current_payment_method_id).toBeNull();
  });

  it('rejects an empty name, unknown members and automatically_created', async () => {
    const customer = await create();
    for (const body of [{ name: '' }, { foo: 1 }, { type: 'automatically_created' }]) {
      const reply = await client.put(`/v1/customers/${customer.id}`, body);
      expect(reply.status).toBe(400);
    }
    expect((await client.get(`/v1/customers/${customer.id}`)).body).toEqual(customer);
  });

  it('changes the currency freely until something locks it', async () => {
    const customer = await create({ currency: 'EUR' });
    const changed = await client.put(`/v1/customers/${customer.id}`, { currency: 'USD' });
    expect(changed.status).toBe(200);
    expect(changed.body.currency).toBe('USD');
  });

  it('returns 404 for an unknown customer', async () => {
    const reply = await client.put('/v1/customers/cus_unknown', { name: 'X' });
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe('not_found');
  });
});

describe('archive, unarchive and delete', () => {
  it('archives and unarchives; doing it twice is a no-op', async () => {
    const customer = await create();
    const archived = await client.put(`/v1/customers/${customer.id}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body.status).toBe('archived');
    const again = await client.put(`/v1/customers/${customer.id}/archive`);
    expect(again.body).toEqual(archived.body);
    const active = await client.put(`/v1/customers/${customer.id}/unarchive`);
    expect(active.body.status).toBe('active');
  });

  it('soft-deletes: the customer keeps answering with deleted_at, leaves the list, and refuses changes', async () => {
    const customer = await create({ name: 'To delete' });
    const before = (await client.get('/v1/customers?take=0')).body.meta.total;
    const deleted = await client.delete(`/v1/customers/${customer.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted_at).toEqual(expect.any(String));
    expect((await client.get(`/v1/customers/${customer.id}`)).body.deleted_at).toBe(deleted.body.deleted_at);
    expect((await client.delete(`/v1/customers/${customer.id}`)).body).toEqual(deleted.body);
    const after = await client.get('/v1/customers?take=100');
    expect(after.body.meta.total).toBe(before - 1);
    expect(after.body.data.map((c: { id: string }) => c.id)).not.toContain(customer.id);
    expect((await client.put(`/v1/customers/${customer.id}`, { name: 'X' })).status).toBe(409);
    expect((await client.put(`/v1/customers/${customer.id}/archive`)).status).toBe(409);
  });

  it('404s on an unknown id', async () => {
    expect((await client.put('/v1/customers/cus_nope/archive')).status).toBe(404);
    expect((await client.delete('/v1/customers/cus_nope')).status).toBe(404);
  });
});
