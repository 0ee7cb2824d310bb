/**
 * The request members that name an id, found in the route table's request schemas (body and query, at any depth):
 * members named `id`, `…_id` or `…_ids`. Ids are plain strings in the schemas (`id` in shared/schemas/common.ts,
 * no kind pattern), so the name is what tells them; a member added tomorrow under such a name is found the day it
 * is added (test/integration/foreign-ids.test.ts fails until it says what the member names).
 */
import { routes, type RouteDefinition } from '../../functions/routes';
import type { Schema } from '../../shared/schemas/common';

const ID_NAME = /(^|_)ids?$/;

/** Member paths below `at`: `body.line_items[].product_id`, `body.coupon_ids[]`, `query.customer_id`. */
function* members(node: Schema | undefined, at: string): Generator<string> {
  if (!node || typeof node !== 'object') return;
  for (const [name, member] of Object.entries((node.properties ?? {}) as Record<string, Schema>)) {
    const path = `${at}.${name}`;
    if (ID_NAME.test(name)) yield [member, ...((member.anyOf ?? []) as Schema[])].some((m) => m.type === 'array') ? `${path}[]` : path;
    yield* members(member, path);
  }
  if (node.items) yield* members(node.items as Schema, `${at}[]`);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const branch of (node[key] ?? []) as Schema[]) yield* members(branch, at);
  for (const branch of ['then', 'else'] as const) if (node[branch]) yield* members(node[branch] as Schema, at);
}

/** Every id member of every route, as `<route id> <member path>`, once. */
export function idMembers(table: readonly RouteDefinition[] = routes): string[] {
  const found = new Set<string>();
  for (const route of table) {
    for (const part of ['query', 'body'] as const) for (const member of members(route.request[part], part)) found.add(`${route.id} ${member}`);
  }
  return [...found];
}
