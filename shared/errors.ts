/** Typed domain errors. One mapper (shared/http/errors.ts) turns them into HTTP responses. */
export interface FieldError {
  path: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly status: number;
  /** Headers the response carries besides the API's own (a 401's `WWW-Authenticate`). */
  headers?: Record<string, string>;
  constructor(
    readonly code: string,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the request is malformed or fails validation. */
export class InvalidRequest extends DomainError {
  readonly status = 400;
  constructor(message: string, errors?: FieldError[], code = 'invalid_request') {
    super(code, message, errors);
  }
}

/** 401: no valid token. */
export class Unauthorized extends DomainError {
  readonly status = 401;
  constructor(message = 'A valid bearer token is required.') {
    super('unauthorized', message);
  }
}

/** 403: the token lacks a scope or the workspace claim. */
export class Forbidden extends DomainError {
  readonly status = 403;
  constructor(message: string, code = 'insufficient_scope') {
    super(code, message);
  }
}

/**
 * 404: unknown id, or an id of another workspace (indistinguishable on purpose). `not_found` when the path names the
 * resource; a route that reads another resource by a query parameter names which one was missing by its own code.
 */
export class NotFound extends DomainError {
  readonly status = 404;
  constructor(resource: string, id: string, code = 'not_found') {
    super(code, `No ${resource} with id '${id}'.`);
  }
}

/** 409: the resource is not in a state that allows the action. */
export class Conflict extends DomainError {
  readonly status = 409;
  constructor(message: string, code = 'invalid_state_transition') {
    super(code, message);
  }
}

/** 422: well-formed, but breaks a business rule. */
export class RuleViolation extends DomainError {
  readonly status = 422;
  constructor(code: string, message: string) {
    super(code, message);
  }
}

/** 503: a transient failure (throttling, transaction conflicts); the client may retry. */
export class ServiceUnavailable extends DomainError {
  readonly status = 503;
  constructor(message = 'The service is busy; retry the request.') {
    super('service_unavailable', message);
    // A second is DynamoDB's own scale: a throttled partition or a conflicting transaction is past by then.
    this.headers = { 'retry-after': '1' };
  }
}

/** 429: the workspace has used up its requests of this kind for the current window (shared/http/rate-limit.ts). */
export class RateLimited extends DomainError {
  readonly status = 429;
  constructor(message: string) {
    super('rate_limited', message);
  }
}
