/**
 * Cross-cutting guarantees, checked for every route of the route table: a route added tomorrow is covered the
 * day it is added (and this file fails until it knows how to make that route's resource and a valid body).
 */
import { generateKeys, signToken } from '../../lib/local/jwt';
import { routes, type RouteDefinition } from '../../functions/routes';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { resourceFixtures as fixtures, validBodies } from '../support/route-fixtures';

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
beforeAll(async () => {
  api = await startTestApi({ events: true });
  owner = await api.client();
  await withEntity(owner);
});
afterAll(() => api.close());

async function call(route: RouteDefinition, headers: Record<string, string>, body?: string, params: Record<string, string> = {}) {
  const hasBody = route.request.body !== undefined;
  return api.raw(route.method, fill(route.path, params), {
    headers: { ...(hasBody && { 'content-type': 'application/json' }), ...headers },
    body: hasBody ? (body ?? JSON.stringify(validBodies[route.id])) : undefined,
  });
}

const errorOf = (route: RouteDefinition, body: any) => (route.errorFormat === 'oauth' ? body.error : body.code);

describe('the route table', () => {
  it('knows a fixture for every {id} and a valid body for every body', () => {
    for (const route of routes) {
      if (route.path.includes('{')) expect([label(route), fixtureKey(route) !== undefined]).toEqual([label(route), true]);
      if (route.request.body) expect([route.id, validBodies[route.id] !== undefined]).toEqual([route.id, true]);
    }
  });
});

describe.each(routes.map((r) => [label(r), r] as const))('%s', (_, route) => {
  it('answers 401 without a valid token (none, bad signature, expired, wrong audience, wrong issuer)', async () => {
    const strangerKeys = await generateKeys();
    const tokens = [
      undefined,
      await signToken(strangerKeys, { workspace: owner.workspace }),
      await signToken(api.keys, { workspace: owner.workspace, expiresInSeconds: -60 }),
      await signToken(api.keys, { workspace: owner.workspace, audience: 'another-api' }),
      await signToken(api.keys, { workspace: owner.workspace, issuer: 'https://evil.example.com/' }),
      'not-a-jwt',
    ];
    for (const token of tokens) {
      const reply = await call(route, token ? { authorization: `Bearer ${token}` } : {});
      expect([token, reply.status]).toEqual([token, 401]);
      expect(reply.body.code).toBe('unauthorized');
    }
  });

  it('answers 403 when the token lacks the scope or the workspace', async () => {
    const tokens = [await signToken(api.keys, { workspace: '', scope: 'read write' })];
    if (route.scope !== 'any') {
      const other = route.scope === 'read' ? 'write' : 'read';
      tokens.push(await signToken(api.keys, { workspace: owner.workspace, scope: other }));
      tokens.push(await signToken(api.keys, { workspace: owner.workspace, scope: '' }));
    }
    for (const token of tokens) {
      const reply = await call(route, { authorization: `Bearer ${token}` });
      expect(reply.status).toBe(403);
      expect(reply.body).toMatchObject({ code: expect.any(String), message: expect.any(String), request_id: expect.any(String) });
    }
  });

  if (route.path.includes('{')) {
    it("answers 404 for another workspace's id and changes nothing", async () => {
      const key = fixtureKey(route)!;
      const made = await fixtures[key]!(owner, api);
      const { params, read } = typeof made === 'string' ? { params: { id: made }, read: fill(key, { id: made }) } : made;
      const readPath = read;
      const before = await owner.get(readPath);
      const intruder = await api.client();
      await withEntity(intruder);
      const reply = await call(route, { authorization: `Bearer ${intruder.token}` }, undefined, params);
      expect(reply.status).toBe(404);
      expect(reply.body.code).toBe('not_found');
      expect(await owner.get(readPath)).toMatchObject({ status: 200, body: before.body });
    });
  }

  if (route.request.body) {
    it('answers 400 with a JSON error body for malformed JSON and for wrong types', async () => {
      const authorization = `Bearer ${owner.token}`;
      const firstMember = Object.entries((route.request.body!.properties ?? {}) as Record<string, { type?: string }>)[0]!;
      const wrongValue = firstMember[1].type === 'string' ? 12345 : 'not-the-right-type';
      for (const body of ['{"name": ', 'not json', '[]', '"a string"', JSON.stringify({ [firstMember[0]]: wrongValue })]) {
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
