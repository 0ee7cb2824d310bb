import type { IndexName } from '../shared/db/table-definition';
import type { Scope } from '../shared/http/route-meta';
import { idPath, type Schema } from '../shared/schemas/common';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One route of the route table (functions/routes.ts). */
export interface RouteDefinition {
  /** camelCase, unique: names the generated validator module and the Lambda function. */
  id: string;
  method: Method;
  path: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  handler: string;
  /**
   * `read` for GET routes and `write` for the others (DESIGN.md §7); `any` = a valid token suffices; `public` = no token
   * (no authorizer; the handler is a `publicHandler` and verifies its own credential, if any).
   */
  scope: Scope;
  summary: string;
  /** Longer prose for the OpenAPI document (defaults to the summary). */
  description?: string;
  tag: string;
  request: { path?: Schema; query?: Schema; body?: Schema };
  /** `mediaTypes`: those a binary (`format: 'binary'`) response may have; default `application/pdf`. */
  response: { status: number; schema: Schema; list?: boolean; mediaTypes?: readonly string[] };
  errorFormat?: 'oauth';
  /**
   * A GET whose Lambda writes to the table: the OAuth browser flow's GETs, which start or continue a sign-in. Other
   * GET routes only read (lib/table-access.ts).
   */
  writes?: boolean;
  /**
   * The table indexes the route queries: its Lambda may query these and no other (lib/table-access.ts). Default: the
   * list index (gsi1) for a list route (`response.list`), none for any other route.
   */
  indexes?: readonly IndexName[];
}

/** The response schema of a `{meta, data}` list of `item`. */
export const listOf = (item: Schema, meta: Schema = listMeta): Schema => ({
  type: 'object',
  required: ['meta', 'data'],
  properties: { meta, data: { type: 'array', items: item } },
});

const pageMembers = {
  total: { type: 'integer', description: 'Every match of the filters.' },
  taken: { type: 'integer', description: 'Items in `data`.' },
  skipped: { type: 'integer', description: 'Items before this page.' },
};

/** `approximateCount`: true when a filtered list stopped counting its matches (`total` is then a lower bound). */
export const listMeta: Schema = {
  type: 'object',
  required: ['total', 'taken', 'skipped', 'approximateCount'],
  properties: { ...pageMembers, approximateCount: { type: 'boolean' } },
};

/** The meta of a list that always counts exactly (price configurations). */
export const exactListMeta: Schema = { type: 'object', required: ['total', 'taken', 'skipped'], properties: pageMembers };

/**
 * The action routes of one resource: `POST <path>/{id}/<verb>` (handler `functions/<dir>/<verb>.ts`), answering 200
 * with the resource. `actionsOf({...})('voidQuote', 'void', 'Void a quote', body?)`.
 */
export const actionsOf = (resource: { path: string; dir: string; tag: string; schema: Schema }) =>
  (id: string, verb: string, summary: string, body?: Schema): RouteDefinition => ({
    id, method: 'POST', path: `${resource.path}/{id}/${verb}`, handler: `functions/${resource.dir}/${verb}.ts`, scope: 'write', tag: resource.tag, summary,
    request: { path: idPath, ...(body && { body }) }, response: { status: 200, schema: resource.schema },
  });

/**
 * The routes of one area whose path names the resource by `{id}` unless `rest` says otherwise: read scope for GET,
 * write for the rest, 200 with `schema` by default. `routesOf({dir, tag, schema})('getPlan', 'GET', path, 'get', summary, {})`.
 */
export const routesOf = (area: { dir: string; tag: string; schema: Schema }) =>
  (id: string, method: Method, path: string, file: string, summary: string, rest: Partial<RouteDefinition>): RouteDefinition => ({
    id, method, path, handler: `functions/${area.dir}/${file}.ts`, scope: method === 'GET' ? 'read' : 'write', tag: area.tag, summary,
    request: { path: idPath }, response: { status: 200, schema: area.schema }, ...rest,
  });
