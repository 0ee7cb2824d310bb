import type { RouteDefinition } from '../route-definition';

export const subscriptionRoutes: RouteDefinition[] = [];
