import createClient, { type Middleware } from 'openapi-fetch';
import { currentToken } from '../auth';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];

/** The API's error body, shown to the operator as it is (its message, and what each invalid field says). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

const bearer: Middleware = {
  async onRequest({ request }) {
    request.headers.set('authorization', `Bearer ${await currentToken()}`);
    return request;
  },
};

/** The typed client generated from the OpenAPI document: a contract change breaks the dashboard's type check. */
export const api = createClient<paths>({ baseUrl: location.origin });
api.use(bearer);

interface ErrorBody {
  message?: string;
  code?: string;
  errors?: Array<{ path?: string; message?: string }>;
}

/** The data of an openapi-fetch answer, or an ApiError carrying the API's own message. */
export function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) {
    const body = (result.error ?? {}) as ErrorBody;
    const details = (body.errors ?? []).map((e) => [e.path, e.message].filter(Boolean).join(': '));
    throw new ApiError(result.response.status, body.message ?? `${result.response.status} ${result.response.statusText}`, details);
  }
  return result.data as T;
}

/** An idempotency key for a request that moves money: a retried click is the same request. */
export const idempotencyKey = (): string => crypto.randomUUID();
