import type { Client, TestApi } from '../api';

/**
 * What the route-matrix tests need from an area: how to make the resource a route's `{id}` names (keyed by the
 * path up to that `{id}`), and a valid body for each route that takes one (keyed by route id).
 */
export interface AreaFixtures {
  resources: Record<string, (client: Client, api: TestApi) => Promise<string>>;
  bodies: Record<string, unknown>;
}
