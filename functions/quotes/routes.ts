import type { RouteDefinition } from '../route-definition';

export const quoteRoutes: RouteDefinition[] = [];
