/**
 * Cross-cutting guarantees, checked for every route of the route table: a route added tomorrow is covered the
 * day it is added (and this file fails until it knows how to make that route's resource and a valid body).
 */
import { routes, type RouteDefinition } from '../../functions/routes';
import { startTestApi, withEntity, type Client, type Reply, type TestApi } from '../support/api';
import { resourceFixtures as fixtures, validBodies, validQueries } from '../support/route-fixtures';
import type { Made } from '../support/route-fixtures/types';
import { tokenMatrix, type TokenVariant } from '../support/token-variants';

/** The fixture of a route: the longest registered path that starts its path. */
const fixtureKey = (route: RouteDefinition) =>
  Object.keys(fixtures)
    .filter((key) => route.path === key || route.path.startsWith(`${key}/`))
    .sort((a, b) => b.length - a.length)[0];
const fill = (path: string, params: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? 'id_unknown'));
const label = (route: RouteDefinition) => `${route.method} ${route.path}`;

let api: TestApi;
let owner: Client;
/** Another workspace, with its own entity, whose calls naming the owner's ids must change nothing. */
let intruder: Client;
let matrix: Awaited<ReturnType<typeof tokenMatrix>>;
beforeAll(async () => {
  api = await startTestApi({ events: true });
  owner = await api.client();
  intruder = await api.client();
  await Promise.all([withEntity(owner), withEntity(intruder)]);
  matrix = await tokenMatrix(api.keys, (await api.client()).workspace);
});
afterAll(() => api.close());

async function call(route: RouteDefinition, headers: Record<string, string>, body?: string, params: Record<string, string> = {}) {
  const hasBody = route.request.body !== undefined;
  return api.raw(route.method, fill(route.path, params) + (validQueries[route.id] ?? ''), {
    headers: { ...(hasBody && { 'content-type': 'application/json' }), ...headers },
    body: hasBody ? (body ?? JSON.stringify(validBodies[route.id])) : undefined,
  });
}

/** The cheapest request a route takes: no body, unknown ids (authentication and scopes come before both). */
const bare = (route: RouteDefinition, headers: Record<string, string>) => api.raw(route.method, fill(route.path, {}), { headers });

/** A refusal: its status, JSON with its code, the caller's request id (header and body), neither sniffed nor cached. */
const refusedAs = (reply: Reply, variant: TokenVariant, requestId: string) =>
  reply.status === variant.status &&
  reply.headers.get('content-type')?.startsWith('application/json') &&
  reply.body?.code === variant.code &&
  reply.body.request_id === requestId &&
  reply.headers.get('x-request-id') === requestId &&
  reply.headers.get('x-content-type-options') === 'nosniff' &&
  reply.headers.get('cache-control') === 'no-store';

const errorOf = (route: RouteDefinition, body: any) => (route.errorFormat === 'oauth' ? body.error : body.code);

/**
 * The owner's resource of a fixture, made once and named by every route under it, as the fuzz suite does (some take a
 * dozen requests to make): each route's test reads it before and after the intruder's call, so none can hide a change.
 */
const made = new Map<string, Promise<Made>>();
const resourceOf = (key: string): Promise<Made> => {
  if (!made.has(key)) made.set(key, fixtures[key]!(owner, api));
  return made.get(key)!;
};

describe('the route table', () => {
  it('knows a fixture for every {id} and a valid body for every body', () => {
    for (const route of routes) {
      if (route.path.includes('{')) expect([label(route), fixtureKey(route) !== undefined]).toEqual([label(route), true]);
      if (route.request.body) expect([route.id, validBodies[route.id] !== undefined]).toEqual([route.id, true]);
    }
  });
});

/** Authenticated routes whose path parameters name no resource of a workspace (nothing for another to be refused), and why. */
const PATHS_NAMING_NOTHING: Record<string, string> = {
  getAnalyticsMetric: 'the metric is one of a fixed list of names; each workspace reads its own figures of it (test/integration/analytics.test.ts)',
};

describe.each(routes.map((r) => [label(r), r] as const))('%s', (_, route) => {
  // A public route (OAuth, discovery, hosted pages) takes no bearer token: its own credential is tested with it.
  const authenticated = route.scope !== 'public';

  if (authenticated) it('refuses every variant of the token matrix (401 at the edge, 403 in the Lambda) with the API headers', async () => {
    const refusals = matrix.variants.filter((v) => !v.refusedOn || v.refusedOn.includes(route.scope));
    const answers = await Promise.all(
      refusals.map(async (variant, i) => {
        const requestId = `matrix-${route.id}-${i}`;
        const reply = await bare(route, { ...(variant.authorization && { authorization: variant.authorization }), 'x-request-id': requestId });
        return { variant, reply, requestId };
      }),
    );
    const wrong = answers
      .filter(({ variant, reply, requestId }) => !refusedAs(reply, variant, requestId))
      .map(({ variant, reply }) => `${variant.name}: ${reply.status} ${JSON.stringify(reply.body)}`);
    expect(wrong).toEqual([]);

    // The control, made by the same builder with nothing wrong, gets past authentication and authorization.
    const control = await bare(route, { authorization: matrix.valid });
    expect([401, 403]).not.toContain(control.status);
  });

  if (authenticated && route.path.includes('{') && !(route.id in PATHS_NAMING_NOTHING)) {
    it("answers 404 for another workspace's id and changes nothing", async () => {
      const key = fixtureKey(route)!;
      const resource = await resourceOf(key);
      const { params, read } = typeof resource === 'string' ? { params: { id: resource }, read: fill(key, { id: resource }) } : resource;
      const readPath = read;
      const before = await owner.get(readPath);
      const reply = await call(route, { authorization: `Bearer ${intruder.token}` }, undefined, params);
      expect(reply.status).toBe(404);
      expect(reply.body.code).toBe('not_found');
      expect(await owner.get(readPath)).toMatchObject({ status: 200, body: before.body });
    });
  }

  if (route.request.body) {
    it('answers 400 with a JSON error body for malformed JSON and for wrong types', async () => {
      const authorization = `Bearer ${owner.token}`;
      const firstMember = Object.entries((route.request.body!.properties ?? {}) as Record<string, { type?: string }>)[0];
      const wrongValue = firstMember?.[1].type === 'string' ? 12345 : 'not-the-right-type';
      // An array body (a batch) gets an object; an object body gets its first member with the wrong type.
      const wrongType = firstMember ? JSON.stringify({ [firstMember[0]]: wrongValue }) : '{"events": []}';
      for (const body of ['{"name": ', 'not json', '[]', '"a string"', wrongType]) {
        const reply = await call(route, { authorization }, body);
        expect([body, reply.status]).toEqual([body, 400]);
        expect(reply.headers.get('content-type')).toContain('application/json');
        expect(errorOf(route, reply.body)).toEqual(expect.any(String));
      }
    });

    it('answers 415 for a body that is not declared JSON', async () => {
      const reply = await call(route, { authorization: `Bearer ${owner.token}`, 'content-type': 'text/plain' });
      expect(reply.status).toBe(415);
    });
  }
});
