import type { ErrorObject } from 'ajv';

/** A precompiled ajv validator (see bin/generate-validators.ts). */
export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** `public`: no bearer token (OAuth endpoints, discovery, hosted pages); the route's handler is a `publicHandler`. */
export type Scope = 'read' | 'write' | 'admin' | 'any' | 'public';

/** What a handler knows of its route: generated from functions/routes.ts, one module per route. */
export interface RouteMeta {
  id: string;
  method: string;
  path: string;
  scope: Scope;
  status: number;
  /** `oauth`: errors follow RFC 7591 (`{error, error_description}`) instead of the API's error body. */
  errorFormat?: 'oauth';
  validate: { path?: ValidateFunction; query?: ValidateFunction; body?: ValidateFunction };
}
