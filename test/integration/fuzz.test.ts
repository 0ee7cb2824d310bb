/**
 * The malformed-request fuzz suite: thousands of requests, generated from the route table (a route added tomorrow is
 * fuzzed the day it is added), each wrong by construction — bad percent-encoding, bad query parameters, wrong types,
 * missing members, extreme numbers, bad metadata, malformed JSON, wrong content types, oversized bodies. Every one
 * must get its 4xx with a JSON error body and change nothing. The seed is random per run and printed on failure;
 * `FUZZ_SEED=<seed>` replays a run.
 */
import fc from 'fast-check';
import { routes, type RouteDefinition } from '../../functions/routes';
import { startTestApi, withEntity, type Client, type Reply, type TestApi } from '../support/api';
import { extremeVariants, fixedVariants, randomVariants, type Malformed, type Target } from '../support/malformed-requests';
import { resourceFixtures as fixtures, validBodies } from '../support/route-fixtures';

const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const MIN_REQUESTS = 5_000;
const CONCURRENCY = 8;

const fixtureKey = (route: RouteDefinition) =>
  Object.keys(fixtures)
    .filter((key) => route.path === key || route.path.startsWith(`${key}/`))
    .sort((a, b) => b.length - a.length)[0];

let api: TestApi;
let owner: Client;
let targets: Target[];

/** Makes the resource of every fixture once, so requests name real ids and reach as deep as they can. */
async function makeTargets(): Promise<Target[]> {
  const made = new Map<string, Record<string, string>>();
  const result: Target[] = [];
  for (const route of routes) {
    const key = fixtureKey(route);
    if (key && !made.has(key)) {
      const resource = await fixtures[key]!(owner, api);
      made.set(key, typeof resource === 'string' ? { id: resource } : resource.params);
    }
    result.push({ route, params: (key && made.get(key)) || {}, validBody: validBodies[route.id] as Record<string, unknown> | undefined });
  }
  return result;
}

/** `meta.total` of every list the workspace has, its path parameters filled from the fixtures. */
async function listTotals(): Promise<Record<string, unknown>> {
  const totals: Record<string, unknown> = {};
  for (const { route, params } of targets.filter((t) => t.route.response.list)) {
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!));
    const reply = await owner.get(path);
    totals[path] = reply.status === 200 ? reply.body.meta.total : `status ${reply.status}`;
  }
  return totals;
}

beforeAll(async () => {
  api = await startTestApi({ events: true });
  owner = await api.client();
  await withEntity(owner);
  targets = await makeTargets();
  await api.events.settle();
}, 120_000);
afterAll(() => api.close());

/** Sends requests `CONCURRENCY` at a time. */
async function sendAll(requests: Malformed[], send: (r: Malformed) => Promise<Reply>): Promise<Array<[Malformed, Reply]>> {
  const results: Array<[Malformed, Reply]> = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      results.push([request, await send(request)]);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return results;
}

/** What is wrong with a reply to a malformed request, or undefined. */
function problemOf(route: RouteDefinition, request: Malformed, reply: Reply): string | undefined {
  if (reply.status >= 500) return `${reply.status}: a server error`;
  if (reply.status < 400) return `${reply.status}: accepted`;
  if (reply.status !== request.expect) return `${reply.status} instead of ${request.expect}`;
  // The OAuth browser routes show their errors to the person as a page (docs/oauth.md).
  if (route.response.schema.contentMediaType === 'text/html' && reply.headers.get('content-type')?.startsWith('text/html')) return undefined;
  if (!reply.headers.get('content-type')?.includes('application/json')) return 'not a JSON error body';
  const body = reply.body as Record<string, unknown> | undefined;
  // RFC 7591: client registration answers its 400s with `{error, error_description}` instead of `code`.
  const code = route.errorFormat === 'oauth' && reply.status === 400 ? body?.error : body?.code;
  if (typeof code !== 'string' || code === '') return 'an error body without a code';
  return undefined;
}

it(`answers every malformed request with its 4xx and a JSON error code, and changes nothing (seed ${seed})`, async () => {
  const requests: Array<[RouteDefinition, Malformed]> = [];
  for (const target of targets) for (const variant of fixedVariants(target)) requests.push([target.route, variant]);
  const perRoute = Math.max(10, Math.ceil((MIN_REQUESTS - requests.length) / targets.length));
  for (const [i, target] of targets.entries()) {
    for (const variant of fc.sample(randomVariants(target), { seed: seed + i, numRuns: perRoute })) requests.push([target.route, variant]);
  }
  const routeOf = new Map(requests.map(([route, request]) => [request, route]));

  const before = await listTotals();
  const started = Date.now();
  const replies = await sendAll(
    requests.map(([, request]) => request),
    (request) =>
      api.raw(request.method, request.path, {
        headers: { ...request.headers, ...(!request.anonymous && { authorization: `Bearer ${owner.token}` }) },
        body: request.body,
      }),
  );
  const seconds = (Date.now() - started) / 1000;
  const after = await listTotals();

  const failures = replies.flatMap(([request, reply]) => {
    const route = routeOf.get(request)!;
    const problem = problemOf(route, request, reply);
    return problem ? [`${route.method} ${route.path} [${request.kind}] → ${problem} ${JSON.stringify(reply.body)?.slice(0, 200)}`] : [];
  });
  const byStatus: Record<number, number> = {};
  for (const [, reply] of replies) byStatus[reply.status] = (byStatus[reply.status] ?? 0) + 1;
  console.log(`fuzz: ${replies.length} malformed requests over ${targets.length} routes in ${seconds.toFixed(1)} s (seed ${seed}): ${JSON.stringify(byStatus)}`);

  expect(replies.length).toBeGreaterThanOrEqual(MIN_REQUESTS);
  expect({ seed, failures: failures.slice(0, 25), failureCount: failures.length }).toEqual({ seed, failures: [], failureCount: 0 });
  expect({ seed, totals: after }).toEqual({ seed, totals: before });
}, 300_000);

it(`answers well-formed requests at the schemas' numeric bounds without a 5xx (seed ${seed})`, async () => {
  const requests = targets.flatMap((target) => extremeVariants(target).map((request) => [target.route, request] as const));
  const replies = await sendAll(
    requests.map(([, request]) => request),
    (request) => api.raw(request.method, request.path, { headers: { ...request.headers, authorization: `Bearer ${owner.token}` }, body: request.body }),
  );
  const routeOf = new Map(requests.map(([route, request]) => [request, route]));
  const failures = replies
    .filter(([, reply]) => reply.status >= 500 || (reply.status >= 400 && typeof (reply.body?.code ?? reply.body?.error) !== 'string'))
    .map(([request, reply]) => `${routeOf.get(request)!.id} [${request.kind}] → ${reply.status} ${JSON.stringify(reply.body)?.slice(0, 200)}`);
  console.log(`fuzz: ${replies.length} requests at numeric bounds`);
  expect(replies.length).toBeGreaterThan(50);
  expect(failures).toEqual([]);
}, 120_000);
