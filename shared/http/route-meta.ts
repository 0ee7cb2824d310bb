import type { ErrorObject } from 'ajv';

/** A precompiled ajv validator (see bin/generate-validators.ts). */
export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export type Scope = 'read' | 'write' | 'any';

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
