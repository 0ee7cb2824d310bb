import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;
const ids: Record<string, string> = {};

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
  const seed = [
    { name: 'Alpha Corp', external_id: 'crm-1' },
    { name: 'beta gmbh', external_id: 'crm-2', billing_email: 'ap@beta.example' },
    { name: 'Gamma Alpha', external_id: null },
    { name: 'Delta', external_id: 'erp-9' },
  ];
  for (const body of seed) ids[body.name] = (await client.post('/v1/customers', body)).body.id;
  await client.put(`/v1/customers/${ids.Delta}/archive`);
});
afterAll(() => api.close());

const names = async (query: string) => {
  const reply = await client.get(`/v1/customers?${query}`);
  expect(reply.status).toBe(200);
  return reply.body.data.map((c: { name: string }) => c.name);
};

describe('GET /v1/customers filters', () => {
  it.each([
    ['name=Delta', ['Delta']],
    ['name__equals=Delta', ['Delta']],
    ['name__not=Delta', ['Alpha Corp', 'beta gmbh', 'Gamma Alpha']],
    ['name__contains=ALPHA', ['Alpha Corp', 'Gamma Alpha']],
    ['name__startsWith=alpha', ['Alpha Corp']],
    ['name__endWith=GmbH', ['beta gmbh']],
    ['name__endsWith=alpha', ['Gamma Alpha']],
    ['status=archived', ['Delta']],
    ['status__not=archived', ['Alpha Corp', 'beta gmbh', 'Gamma Alpha']],
    ['status__in=active,archived', ['Alpha Corp', 'beta gmbh', 'Gamma Alpha', 'Delta']],
    ['status__notIn=active', ['Delta']],
    ['external_id__isNull=true', ['Gamma Alpha']],
    ['external_id__isNotNull=true', ['Alpha Corp', 'beta gmbh', 'Delta']],
    ['external_id__startsWith=crm', ['Alpha Corp', 'beta gmbh']],
    ['external_id=crm-2&name__contains=beta', ['beta gmbh']],
    // search: part of the name, the billing email or the external id, case ignored, with the other filters
    ['search=alph', ['Alpha Corp', 'Gamma Alpha']],
    ['search=BETA.EXAMPLE', ['beta gmbh']],
    ['search=rm-', ['Alpha Corp', 'beta gmbh']],
    ['search=9', ['Delta']],
    ['search=alpha&external_id__isNull=true', ['Gamma Alpha']],
    ['search=nobody', []],
  ])('%s', async (query, expected) => {
    expect(await names(query)).toEqual(expected);
  });

  it('refuses an empty search', async () => {
    const reply = await client.get('/v1/customers?search=');
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).toContain('search');
  });

  it('filters by creation date', async () => {
    const all = (await client.get('/v1/customers')).body.data;
    const third = all[2].created_at;
    expect(await names(`created_at__gte=${third}`)).toEqual(['Gamma Alpha', 'Delta']);
    expect(await names(`created_at__lt=${third}`)).toEqual(['Alpha Corp', 'beta gmbh']);
    expect(await names(`created_at__lte=${third}&created_at__gt=${all[1].created_at}`)).toEqual(['Gamma Alpha']);
    expect(await names('created_at__lt=2000-01-01')).toEqual([]);
  });

  it('counts filtered results in meta and pages them', async () => {
    const reply = await client.get('/v1/customers?name__contains=a&take=2&skip=1');
    expect(reply.body.meta).toEqual({ total: 4, taken: 2, skipped: 1, approximateCount: false });
    expect(reply.body.data.map((c: { name: string }) => c.name)).toEqual(['beta gmbh', 'Gamma Alpha']);
  });

  it('takes 0 to count only', async () => {
    const reply = await client.get('/v1/customers?take=0');
    expect(reply.body).toEqual({ meta: { total: 4, taken: 0, skipped: 0, approximateCount: false }, data: [] });
  });

  it.each(['nam=Delta', 'status=deleted', 'status__in=active,nope', 'created_at__gt=yesterday', 'take=101', 'take=-1', 'skip=-1', 'take=abc', 'name__like=x'])(
    'rejects %s with a 400',
    async (query) => {
      const reply = await client.get(`/v1/customers?${query}`);
      expect(reply.status).toBe(400);
      expect(reply.body.errors[0].path).toMatch(/^query\./);
    },
  );
});
