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
  /** `read` for GET routes and `write` for the others (DESIGN.md §7); `any` = a valid token suffices. */
  scope: Scope;
  summary: string;
  tag: string;
  request: { path?: Schema; query?: Schema; body?: Schema };
  response: { status: number; schema: Schema; list?: boolean };
  errorFormat?: 'oauth';
  /**
   * The table indexes the route queries: its Lambda may query these and no other (lib/table-access.ts). Default: the
   * list index (gsi1) for a list route (`response.list`), none for any other route.
   */
  indexes?: readonly IndexName[];
}

/** The response schema of a `{meta, data}` list of `item`. */
export const listOf = (item: Schema): Schema => ({
  type: 'object',
  properties: {
    meta: {
      type: 'object',
      properties: { total: { type: 'integer' }, taken: { type: 'integer' }, skipped: { type: 'integer' }, approximateCount: { type: 'boolean' } },
    },
    data: { type: 'array', items: item },
  },
});

/**
 * The action routes of one resource: `POST <path>/{id}/<verb>` (handler `functions/<dir>/<verb>.ts`), answering 200
 * with the resource. `actionsOf({...})('voidQuote', 'void', 'Void a quote', body?)`.
 */
export const actionsOf = (resource: { path: string; dir: string; tag: string; schema: Schema }) =>
  (id: string, verb: string, summary: string, body?: Schema): RouteDefinition => ({
    id, method: 'POST', path: `${resource.path}/{id}/${verb}`, handler: `functions/${resource.dir}/${verb}.ts`, scope: 'write', tag: resource.tag, summary,
    request: { path: idPath, ...(body && { body }) }, response: { status: 200, schema: resource.schema },
  });
