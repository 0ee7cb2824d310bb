import type { Client, TestApi } from '../api';

/**
 * A made resource: its id, or every path parameter of the routes below it (`{id}`, `{productId}`…) and the path
 * that reads it back (to check that another workspace's call changed nothing).
 */
export type Made = string | { params: Record<string, string>; read: string };

/**
 * What the route-matrix tests need from an area: how to make the resource a route's path names (keyed by the path
 * up to its last parameter that the fixture fills; the longest matching key serves a route), and a valid body for
 * each route that takes one (keyed by route id), and the required query of the routes that have one.
 */
export interface AreaFixtures {
  resources: Record<string, (client: Client, api: TestApi) => Promise<Made>>;
  bodies: Record<string, unknown>;
  /** A query string (`?…`) for each route whose query has required members (keyed by route id). */
  queries?: Record<string, string>;
}
