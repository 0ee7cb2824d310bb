/**
 * Aggregators through the HTTP layer on DynamoDB Local: every route, each validation rule, the immutable definition,
 * the soft delete and its in-use refusal, the per-workspace limit, and the products that name an aggregator. Every
 * response is checked against its route's schema by the test client (test/support/response-contract.ts).
 */
import { makeCtx } from '../../shared/context';
import { MAX_AGGREGATORS } from '../../shared/domain/metering/aggregator';
import { getAggregator, listAggregatorItems } from '../../shared/domain/metering/aggregator-read';
import { DomainError } from '../../shared/errors';
import { startTestApi, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
});
afterAll(() => api.close());

const count = { name: 'API calls', event_type: 'api_call', operation: 'count' };
const tokens = {
  name: 'Tokens',
  event_type: 'llm.completion',
  operation: 'sum',
  property: 'tokens',
  unit_name: 'token',
  filters: [
    { property: 'model', operator: 'in', value: ['gpt-4', 'claude'] },
    { property: 'cached', operator: 'equals', value: false },
    { property: 'tokens', operator: 'greater_than', value: 0 },
    { property: 'region', operator: 'exists' },
  ],
};

const create = async (body: Record<string, unknown> = count, as: Client = client) => {
  const reply = await as.post('/v1/aggregators', body);
  expect([reply.status, reply.body.code]).toEqual([201, undefined]);
  return reply.body;
};

const product = async (body: Record<string, unknown>, as: Client = client) => as.post('/v1/products', { name: 'Usage', type: 'dynamic', ...body });

/** The field errors of a 400, as `path message`. */
const refusal = async (body: Record<string, unknown>, method: 'post' | 'put' = 'post', path = '/v1/aggregators') => {
  const reply = await client[method](path, body);
  expect([reply.status, reply.body.code]).toEqual([400, 'invalid_request']);
  return (reply.body.errors as { path: string; message: string }[]).map((e) => `${e.path} ${e.message}`);
};

const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /v1/aggregators', () => {
  it('creates a count with its defaults, readable at once', async () => {
    const created = await create();
    expect(created).toEqual({
      id: expect.stringMatching(/^agg_[0-9A-HJKMNP-TV-Z]{26}$/), name: 'API calls', event_type: 'api_call', operation: 'count',
      property: null, filters: [], unit_name: null, created_at: expect.stringMatching(isoMs), updated_at: created.created_at,
      // Hyperline's members, at the values that mean what ours do (docs/hyperline.md).
      entity: 'api_call', where: { conditional: 'and', fields: [] }, type: 'metered', allow_negative_values: false,
      description: null, custom_event_name: null, exposed_event_keys: [],
    });
    expect(await client.get(`/v1/aggregators/${created.id}`)).toMatchObject({ status: 200, body: created });
  });

  it('creates every operation over a property, with filters of every operator kept as given', async () => {
    const created = await create(tokens);
    expect(created).toMatchObject({ ...tokens, id: expect.any(String) });
    expect(created.filters[3]).toEqual({ property: 'region', operator: 'exists' });
    for (const operation of ['sum', 'max', 'unique_count', 'latest']) {
      expect((await create({ ...count, operation, property: 'user_id' })).property).toBe('user_id');
    }
    const everyOperator = [
      { property: 'a', operator: 'equals', value: 'x' }, { property: 'a', operator: 'not_equals', value: 3.5 },
      { property: 'a', operator: 'in', value: [1, 'one', true] }, { property: 'a', operator: 'not_in', value: ['z'] },
      { property: 'n', operator: 'greater_than', value: -1 }, { property: 'n', operator: 'greater_than_or_equal', value: 0 },
      { property: 'n', operator: 'less_than', value: 1e12 }, { property: 'n', operator: 'less_than_or_equal', value: 0.000000001 },
      { property: 'a', operator: 'exists' }, { property: 'b', operator: 'not_exists' },
    ];
    expect((await create({ ...count, filters: everyOperator })).filters).toEqual(everyOperator);
  });

  it('takes a null property for a count (as GET returns it) and names of the documented form at their bounds', async () => {
    expect((await create({ ...count, property: null })).property).toBeNull();
    const longest = `a${'_.:-9'.repeat(19)}bcde`;
    expect(longest).toHaveLength(100);
    const created = await create({ ...count, name: 'n'.repeat(200), event_type: longest, unit_name: 'u'.repeat(100), filters: [{ property: longest, operator: 'exists' }] });
    expect(created.event_type).toBe(longest);
  });

  it('refuses missing and unknown members, bad names and lengths, naming each', async () => {
    expect(await refusal({})).toEqual(['body.operation is required']);
    expect(await refusal({ name: 'API calls', operation: 'count' })).toEqual(["body.event_type is required (or Hyperline's `entity`)"]);
    expect(await refusal({ ...count, colour: 'red' })).toEqual(['body.colour is not a known member']);
    expect(await refusal({ ...count, name: '' })).toEqual(['body.name must NOT have fewer than 1 characters']);
    expect(await refusal({ ...count, name: 'n'.repeat(201) })).toEqual(['body.name must NOT have more than 200 characters']);
    expect(await refusal({ ...count, unit_name: 'u'.repeat(101) })).toEqual(['body.unit_name must NOT have more than 100 characters']);
    expect(await refusal({ ...count, operation: 'average' })).toEqual(['body.operation must be one of: count, sum, max, unique_count, latest']);
    expect(await refusal({ ...count, event_type: 'e'.repeat(101) })).toEqual(['body.event_type must NOT have more than 100 characters']);
    for (const bad of ['api call', '.starts_with_dot', 'slash/inside', 'é', '']) {
      const errors = await refusal({ ...count, event_type: bad });
      expect([bad, errors[0]]).toEqual([bad, expect.stringMatching(/^body\.event_type must /)]);
    }
    expect(await refusal({ ...count, operation: 'sum', property: 'has space' })).toEqual([
      'body.property must be a name of letters, digits and _ . : - (starting with a letter, digit or _)',
    ]);
  });

  it('requires a property for every operation but count, and refuses one for count', async () => {
    for (const operation of ['sum', 'max', 'unique_count', 'latest']) {
      expect(await refusal({ ...count, operation })).toEqual([`body.property is required when operation is '${operation}'`]);
      expect(await refusal({ ...count, operation, property: null })).toEqual([`body.property is required when operation is '${operation}'`]);
    }
    expect(await refusal({ ...count, property: 'tokens' })).toEqual(["body.property must be absent or null when operation is 'count' (a count aggregates no property)"]);
  });

  it("refuses a filter whose value does not fit its operator, naming the filter and the rule", async () => {
    const filtered = (filters: unknown[]) => refusal({ ...count, filters });
    expect(await filtered([{ property: 'a', operator: 'equals' }])).toEqual(["body.filters.0.value is required for operator 'equals'"]);
    expect(await filtered([{ property: 'a', operator: 'exists' }, { property: 'a', operator: 'not_exists', value: true }])).toEqual([
      "body.filters.1.value must be absent for operator 'not_exists'",
    ]);
    expect(await filtered([{ property: 'a', operator: 'in', value: 'x' }])).toEqual(["body.filters.0.value must be an array of 1 to 100 values for operator 'in'"]);
    expect(await filtered([{ property: 'a', operator: 'not_in', value: 1 }])).toEqual(["body.filters.0.value must be an array of 1 to 100 values for operator 'not_in'"]);
    for (const operator of ['greater_than', 'greater_than_or_equal', 'less_than', 'less_than_or_equal']) {
      expect(await filtered([{ property: 'n', operator, value: '5' }])).toEqual([`body.filters.0.value must be a number for operator '${operator}'`]);
    }
    expect(await filtered([{ property: 'a', operator: 'equals', value: ['x'] }])).toEqual([
      "body.filters.0.value must be a single string, number or boolean for operator 'equals' (use 'in' for a list)",
    ]);
    expect(await filtered([{ property: 'a', operator: 'like', value: 'x' }])).toEqual([expect.stringMatching(/^body\.filters\.0\.operator must be one of: equals, /)]);
    expect(await filtered([{ operator: 'exists' }])).toEqual(['body.filters.0.property is required']);
    expect(await filtered([{ property: 'a', operator: 'exists', extra: 1 }])).toEqual(['body.filters.0.extra is not a known member']);
  });

  it('bounds filters: 20 at most, 1 to 100 values in a list, strings of 255, numbers within 2^53 with 9 decimals, 8 KB in all', async () => {
    const exists = { property: 'a', operator: 'exists' };
    expect((await create({ ...count, filters: Array(20).fill(exists) })).filters).toHaveLength(20);
    expect(await refusal({ ...count, filters: Array(21).fill(exists) })).toEqual(['body.filters must NOT have more than 20 items']);
    const inList = (value: unknown) => ({ ...count, filters: [{ property: 'a', operator: 'in', value }] });
    expect((await create(inList(Array.from({ length: 100 }, (_, i) => i)))).filters[0].value).toHaveLength(100);
    expect(await refusal(inList(Array.from({ length: 101 }, (_, i) => i)))).toEqual(['body.filters.0.value must NOT have more than 100 items']);
    expect(await refusal(inList([]))).toEqual(['body.filters.0.value must NOT have fewer than 1 items']);
    expect(await refusal(inList([{ nested: true }]))).toEqual([
      'body.filters.0.value.0 must be string', 'body.filters.0.value.0 must be number', 'body.filters.0.value.0 must be boolean',
    ]);
    const equals = (value: unknown) => ({ ...count, filters: [{ property: 'a', operator: 'equals', value }] });
    expect((await create(equals('s'.repeat(255)))).filters[0].value).toHaveLength(255);
    expect(await refusal(equals('s'.repeat(256)))).toEqual(['body.filters.0.value must NOT have more than 255 characters']);
    expect(await refusal(equals(2 ** 53))).toEqual(['body.filters.0.value must be <= 9007199254740991']);
    expect(await refusal(equals(0.0000000001))).toEqual(['body.filters.0.value must have at most 9 decimals']);
    expect(await refusal(equals(null))).toEqual([
      'body.filters.0.value must be string', 'body.filters.0.value must be number', 'body.filters.0.value must be boolean', 'body.filters.0.value must be array',
    ]);
    const large = Array.from({ length: 20 }, (_, f) => ({ property: `p${f}`, operator: 'in', value: Array.from({ length: 100 }, (_, i) => `value-${f}-${i}`) }));
    expect(await refusal({ ...count, filters: large })).toEqual([expect.stringMatching(/^body\.filters take \d+ bytes as JSON; at most 8192$/)]);
  });
});

describe("Hyperline's members", () => {
  const where = (operator: string, conditional = 'and') => ({ conditional, fields: [{ property: 'user_id', operator }, { property: 'team_id', operator: 'isNotNull' }] });

  it('maps entity and where onto the definition, stores the descriptive members, names the aggregator after its event type', async () => {
    const created = await create({ entity: 'api_calls', operation: 'count', where: where('isNull'), type: 'metered', allow_negative_values: false, custom_event_name: 'Call' });
    expect(created).toMatchObject({
      name: 'api_calls', event_type: 'api_calls', entity: 'api_calls', type: 'metered', allow_negative_values: false, description: null,
      custom_event_name: 'Call', exposed_event_keys: [], where: where('isNull'),
      filters: [{ property: 'user_id', operator: 'not_exists' }, { property: 'team_id', operator: 'exists' }],
    });
    const updated = await client.put(`/v1/aggregators/${created.id}`, { entity: 'api_calls', description: 'Public API', exposed_event_keys: ['user_id'] });
    expect(updated.body).toMatchObject({ description: 'Public API', exposed_event_keys: ['user_id'], custom_event_name: 'Call' });
    const changed = await client.put(`/v1/aggregators/${created.id}`, { where: where('isNotNull') });
    expect([changed.status, changed.body.code]).toEqual([422, 'aggregator_definition_immutable']);
    expect((await create(tokens)).where).toEqual({ conditional: 'and', fields: [{ property: 'region', operator: 'isNotNull' }] });
  });

  it('refuses with 422 what would bill otherwise than Hyperline means it, and creates nothing', async () => {
    const before = (await client.get('/v1/aggregators?take=100')).body.meta.total;
    const refusals: [Record<string, unknown>, string][] = [
      [{ type: 'licensed' }, 'type'],
      [{ allow_negative_values: true }, 'allow_negative_values'],
      [{ where: where('isNull', 'or') }, 'where.conditional'],
      [{ where: where('equals') }, "where.fields.0.operator: 'equals' has no filter here"],
      [{ entity: 'other' }, 'entity: says otherwise than `event_type`'],
      [{ where: where('isNull'), filters: [] }, 'where: says otherwise than `filters`'],
    ];
    for (const [members, message] of refusals) {
      const reply = await client.post('/v1/aggregators', { ...count, ...members });
      expect([members, reply.status, reply.body.code]).toEqual([members, 422, 'hyperline_member_unsupported']);
      expect(reply.body.message).toContain(message);
    }
    expect((await client.get('/v1/aggregators?take=100')).body.meta.total).toBe(before);
  });
});

describe('GET /v1/aggregators', () => {
  it('lists the live aggregators oldest first with an exact total, pages with take/skip, leaves deleted ones out', async () => {
    const lister = await api.client();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await create({ ...count, name: `A${i}` }, lister));
    expect((await lister.delete(`/v1/aggregators/${made[1].id}`)).status).toBe(200);
    const all = await lister.get('/v1/aggregators');
    expect(all.status).toBe(200);
    expect(all.body.meta).toEqual({ total: 4, taken: 4, skipped: 0 });
    expect(all.body.data.map((a: { name: string }) => a.name)).toEqual(['A0', 'A2', 'A3', 'A4']);
    expect(all.body.data[0]).toEqual(made[0]);
    const page = await lister.get('/v1/aggregators?take=2&skip=1');
    expect(page.body).toEqual({ meta: { total: 4, taken: 2, skipped: 1 }, data: [made[2], made[3]] });
    expect((await lister.get('/v1/aggregators?skip=10')).body).toEqual({ meta: { total: 4, taken: 0, skipped: 10 }, data: [] });
    expect((await lister.get('/v1/aggregators?take=101')).status).toBe(400);
    expect((await lister.get('/v1/aggregators?name=A0')).status).toBe(400);
    expect((await (await api.client()).get('/v1/aggregators')).body).toEqual({ meta: { total: 0, taken: 0, skipped: 0 }, data: [] });
  });
});

describe('GET /v1/aggregators/{id}', () => {
  it("answers 404 not_found for an unknown id and for another workspace's aggregator", async () => {
    const unknown = await client.get('/v1/aggregators/agg_01JUNKNOWN0000000000000000');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
    const theirs = await create(count, await api.client());
    const reply = await client.get(`/v1/aggregators/${theirs.id}`);
    expect([reply.status, reply.body.code]).toEqual([404, 'not_found']);
  });
});

describe('PUT /v1/aggregators/{id}', () => {
  it('renames and sets or clears the unit, keeping the rest', async () => {
    const created = await create(tokens);
    const renamed = await client.put(`/v1/aggregators/${created.id}`, { name: 'Billable tokens' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...created, name: 'Billable tokens', updated_at: expect.stringMatching(isoMs) });
    expect((await client.put(`/v1/aggregators/${created.id}`, { unit_name: null })).body).toMatchObject({ name: 'Billable tokens', unit_name: null });
    expect((await client.put(`/v1/aggregators/${created.id}`, { unit_name: 'k tokens' })).body.unit_name).toBe('k tokens');
    expect((await client.get(`/v1/aggregators/${created.id}`)).body).toMatchObject({ name: 'Billable tokens', unit_name: 'k tokens', filters: tokens.filters });
  });

  it('takes the definition repeated as it is, in any order of filters and of list values', async () => {
    const created = await create(tokens);
    const { name: _n, unit_name: _u, ...definition } = tokens;
    const reordered = {
      ...definition,
      filters: [tokens.filters[3], { ...tokens.filters[0], value: ['claude', 'gpt-4'] }, tokens.filters[2], tokens.filters[1]],
    };
    const reply = await client.put(`/v1/aggregators/${created.id}`, { ...reordered, name: 'Same meaning' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ name: 'Same meaning', filters: tokens.filters });
    const { id: _id, created_at: _c, updated_at: _t, ...asRead } = (await client.get(`/v1/aggregators/${created.id}`)).body;
    expect((await client.put(`/v1/aggregators/${created.id}`, asRead)).status).toBe(200);
    const counted = await create();
    expect((await client.put(`/v1/aggregators/${counted.id}`, { operation: 'count', property: null, filters: [] })).status).toBe(200);
  });

  it('refuses any change of the definition with 422 aggregator_definition_immutable, changing nothing', async () => {
    const created = await create(tokens);
    const changes: [Record<string, unknown>, string][] = [
      [{ event_type: 'llm.embedding' }, 'event_type'],
      [{ operation: 'max' }, 'operation'],
      [{ property: 'input_tokens' }, 'property'],
      [{ property: null }, 'property'],
      [{ filters: [] }, 'filters'],
      [{ filters: tokens.filters.slice(1) }, 'filters'],
      [{ filters: [{ ...tokens.filters[0], value: ['gpt-4'] }, ...tokens.filters.slice(1)] }, 'filters'],
      [{ filters: [...tokens.filters, { property: 'x', operator: 'not_exists' }] }, 'filters'],
      [{ name: 'Renamed too', operation: 'latest', event_type: 'other' }, 'event_type, operation'],
    ];
    for (const [body, members] of changes) {
      const reply = await client.put(`/v1/aggregators/${created.id}`, body);
      expect([body, reply.status, reply.body.code]).toEqual([body, 422, 'aggregator_definition_immutable']);
      expect(reply.body.message).toContain(`this request changes ${members}.`);
      expect(reply.body.message).toContain('Create a new aggregator');
    }
    expect((await client.get(`/v1/aggregators/${created.id}`)).body).toEqual(created);
  });

  it('validates the body like a creation (400) and answers 404 for unknown, deleted and foreign aggregators', async () => {
    const created = await create();
    expect(await refusal({ filters: [{ property: 'a', operator: 'in', value: 'x' }] }, 'put', `/v1/aggregators/${created.id}`)).toEqual([
      "body.filters.0.value must be an array of 1 to 100 values for operator 'in'",
    ]);
    expect(await refusal({ name: '' }, 'put', `/v1/aggregators/${created.id}`)).toEqual(['body.name must NOT have fewer than 1 characters']);
    expect(await refusal({ id: 'agg_x' }, 'put', `/v1/aggregators/${created.id}`)).toEqual(['body.id is not a known member']);
    expect((await client.put('/v1/aggregators/agg_unknown', { name: 'x' })).status).toBe(404);
    const theirs = await create(count, await api.client());
    expect((await client.put(`/v1/aggregators/${theirs.id}`, { name: 'x' })).status).toBe(404);
    await client.delete(`/v1/aggregators/${created.id}`);
    const afterDelete = await client.put(`/v1/aggregators/${created.id}`, { name: 'x' });
    expect([afterDelete.status, afterDelete.body.code]).toEqual([404, 'not_found']);
  });

  it('keeps every one of concurrent renames whole (conditional on the version)', async () => {
    const created = await create(tokens);
    const names = Array.from({ length: 8 }, (_, i) => `Concurrent ${i}`);
    const replies = await Promise.all(names.map((name) => client.put(`/v1/aggregators/${created.id}`, { name })));
    expect(replies.map((r) => r.status)).toEqual(names.map(() => 200));
    const final = (await client.get(`/v1/aggregators/${created.id}`)).body;
    expect(names).toContain(final.name);
    expect(final.filters).toEqual(tokens.filters);
  });
});

describe('DELETE /v1/aggregators/{id}', () => {
  it('soft deletes: answers the aggregator, then 404 on every route, out of the list and of listAggregatorItems', async () => {
    const owner = await api.client();
    const kept = await create(count, owner);
    const gone = await create(tokens, owner);
    const reply = await owner.delete(`/v1/aggregators/${gone.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ...gone, updated_at: expect.stringMatching(isoMs) });
    expect((await owner.get(`/v1/aggregators/${gone.id}`)).status).toBe(404);
    expect((await owner.delete(`/v1/aggregators/${gone.id}`)).status).toBe(404);
    expect((await owner.get('/v1/aggregators')).body.data.map((a: { id: string }) => a.id)).toEqual([kept.id]);
    const ctx = makeCtx(owner.workspace, 'test');
    expect((await listAggregatorItems(ctx)).map((a) => a.id)).toEqual([kept.id]);
    expect(await getAggregator(ctx, kept.id)).toMatchObject({ id: kept.id, deleted_at: null, _type: 'aggregator' });
    await expect(getAggregator(ctx, gone.id)).rejects.toMatchObject({ status: 404, code: 'aggregator_not_found' });
    await expect(getAggregator(ctx, 'agg_never')).rejects.toBeInstanceOf(DomainError);
  });

  it("answers 404 for another workspace's aggregator and leaves it alone", async () => {
    const theirs = await api.client();
    const aggregator = await create(count, theirs);
    expect((await client.delete(`/v1/aggregators/${aggregator.id}`)).status).toBe(404);
    expect((await theirs.get(`/v1/aggregators/${aggregator.id}`)).body).toEqual(aggregator);
  });

  it('refuses with 409 aggregator_in_use while a product that is not deleted names it, archived or not', async () => {
    const aggregator = await create();
    const usage = (await product({ aggregator_id: aggregator.id })).body;
    const inUse = await client.delete(`/v1/aggregators/${aggregator.id}`);
    expect([inUse.status, inUse.body.code]).toEqual([409, 'aggregator_in_use']);
    expect(inUse.body.message).toContain(usage.id);
    expect((await client.put(`/v1/products/${usage.id}/archive`)).status).toBe(200);
    expect((await client.delete(`/v1/aggregators/${aggregator.id}`)).status).toBe(409);
    expect((await client.get(`/v1/aggregators/${aggregator.id}`)).body).toEqual(aggregator);
    expect((await client.delete(`/v1/products/${usage.id}`)).status).toBe(200);
    expect((await client.delete(`/v1/aggregators/${aggregator.id}`)).status).toBe(200);
  });

  it('frees the aggregator once its products name another one or none', async () => {
    const [first, second] = [await create(), await create()];
    const a = (await product({ aggregator_id: first.id })).body;
    const b = (await product({ type: 'credit', aggregator_id: first.id })).body;
    expect((await client.put(`/v1/products/${a.id}`, { aggregator_id: second.id })).body.aggregator_id).toBe(second.id);
    const stillUsed = await client.delete(`/v1/aggregators/${first.id}`);
    expect(stillUsed.status).toBe(409);
    expect(stillUsed.body.message).toContain(b.id);
    expect(stillUsed.body.message).not.toContain(a.id);
    expect((await client.put(`/v1/products/${b.id}`, { aggregator_id: null })).body.aggregator_id).toBeNull();
    expect((await client.delete(`/v1/aggregators/${first.id}`)).status).toBe(200);
    expect((await client.delete(`/v1/aggregators/${second.id}`)).status).toBe(409);
  });

  it('never leaves a product naming a deleted aggregator when its creation races the deletion', async () => {
    for (let round = 0; round < 5; round++) {
      const aggregator = await create();
      const [made, deleted] = await Promise.all([product({ aggregator_id: aggregator.id }), client.delete(`/v1/aggregators/${aggregator.id}`)]);
      // Exactly one wins: the product (and the deletion is refused), or the deletion (and the product is refused).
      expect([made.status, deleted.status].sort()).toEqual(made.status === 201 ? [201, 409] : [200, 422]);
      if (made.status === 422) expect(made.body.code).toBe('aggregator_not_found');
    }
  });
});

describe('the limit of live aggregators', () => {
  it(`refuses the live aggregator past ${MAX_AGGREGATORS} with 422 aggregator_limit_reached, even under concurrent creations`, async () => {
    const full = await api.client();
    const made: string[] = [];
    for (let start = 0; start < MAX_AGGREGATORS - 1; start += 25) {
      const batch = Array.from({ length: Math.min(25, MAX_AGGREGATORS - 1 - start) }, (_, i) => create({ ...count, name: `A${start + i}` }, full));
      made.push(...(await Promise.all(batch)).map((a) => a.id));
    }
    const racing = await Promise.all(Array.from({ length: 6 }, () => full.post('/v1/aggregators', count)));
    expect(racing.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = racing.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.code])).toEqual(Array(5).fill([422, 'aggregator_limit_reached']));
    expect(refused[0]!.body.message).toContain(`at most ${MAX_AGGREGATORS} aggregators`);
    expect((await full.get('/v1/aggregators?take=1')).body.meta.total).toBe(MAX_AGGREGATORS);
    expect((await full.delete(`/v1/aggregators/${made[0]}`)).status).toBe(200);
    await create(count, full);
    expect((await full.post('/v1/aggregators', count)).status).toBe(422);
  }, 120_000);
});

describe("products' aggregator_id", () => {
  it('defaults to null, is set on creation and update for dynamic and credit products, and reads back everywhere', async () => {
    const aggregator = await create();
    const plain = (await product({})).body;
    expect(plain.aggregator_id).toBeNull();
    const metered = await product({ aggregator_id: aggregator.id });
    expect([metered.status, metered.body.aggregator_id]).toEqual([201, aggregator.id]);
    const credit = (await product({ type: 'credit', aggregator_id: aggregator.id })).body;
    expect(credit.aggregator_id).toBe(aggregator.id);
    expect((await client.put(`/v1/products/${plain.id}`, { aggregator_id: aggregator.id })).body.aggregator_id).toBe(aggregator.id);
    expect((await client.get(`/v1/products/${plain.id}`)).body.aggregator_id).toBe(aggregator.id);
    const listed = (await client.get('/v1/products?type=dynamic')).body.data.find((p: { id: string }) => p.id === metered.body.id);
    expect(listed.aggregator_id).toBe(aggregator.id);
    expect((await client.put(`/v1/products/${plain.id}`, { name: 'Renamed' })).body.aggregator_id).toBe(aggregator.id);
    expect((await client.put(`/v1/products/${plain.id}`, { aggregator_id: null })).body.aggregator_id).toBeNull();
  });

  it('refuses an aggregator on flat fee and seat products (422 aggregator_not_allowed), null is fine', async () => {
    const aggregator = await create();
    for (const type of ['flat_fee', 'seat']) {
      const reply = await product({ type, aggregator_id: aggregator.id });
      expect([type, reply.status, reply.body.code]).toEqual([type, 422, 'aggregator_not_allowed']);
      const made = await product({ type, aggregator_id: null });
      expect(made.status).toBe(201);
      const update = await client.put(`/v1/products/${made.body.id}`, { aggregator_id: aggregator.id });
      expect([update.status, update.body.code]).toEqual([422, 'aggregator_not_allowed']);
      expect((await client.put(`/v1/products/${made.body.id}`, { aggregator_id: null })).status).toBe(200);
    }
    // None of the refused writes counted as a use.
    expect((await client.delete(`/v1/aggregators/${aggregator.id}`)).status).toBe(200);
  });

  it('must name a live aggregator of the workspace (422 aggregator_not_found), and a refused write changes nothing', async () => {
    const deleted = await create();
    await client.delete(`/v1/aggregators/${deleted.id}`);
    const theirs = await create(count, await api.client());
    const plain = (await product({})).body;
    for (const id of ['agg_unknown', deleted.id, theirs.id]) {
      const made = await product({ aggregator_id: id });
      expect([id, made.status, made.body.code]).toEqual([id, 422, 'aggregator_not_found']);
      const updated = await client.put(`/v1/products/${plain.id}`, { name: 'Not applied', aggregator_id: id });
      expect([id, updated.status, updated.body.code]).toEqual([id, 422, 'aggregator_not_found']);
    }
    expect((await client.get(`/v1/products/${plain.id}`)).body).toEqual(plain);
    expect((await client.post('/v1/products', { name: 'X', type: 'dynamic', aggregator_id: 12 })).status).toBe(400);
  });
});

describe('aggregator events', () => {
  it('emits aggregator.created, .updated (for a visible change only) and .deleted with the aggregator as data', async () => {
    const watched = await api.client();
    const aggregator = await create(tokens, watched);
    await api.events.settle();
    await watched.put(`/v1/aggregators/${aggregator.id}`, { name: tokens.name });
    await watched.put(`/v1/aggregators/${aggregator.id}`, { name: 'Renamed' });
    await watched.delete(`/v1/aggregators/${aggregator.id}`);
    await api.events.settle();
    const messages = (await watched.get('/v1/webhooks/messages?event_types=aggregator.created&event_types=aggregator.updated&event_types=aggregator.deleted')).body.data;
    const byType = Object.fromEntries(messages.map((m: { payload: { event_type: string; data: object } }) => [m.payload.event_type, m.payload.data]));
    expect(messages).toHaveLength(3);
    expect(byType['aggregator.created']).toEqual(aggregator);
    expect(byType['aggregator.updated']).toMatchObject({ id: aggregator.id, name: 'Renamed', filters: tokens.filters });
    expect(byType['aggregator.deleted']).toMatchObject({ id: aggregator.id, name: 'Renamed' });
  });
});
