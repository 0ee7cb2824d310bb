import type { Schema } from './common';

/** The body of every 4xx/5xx answer (shared/http/errors.ts); `errors` lists the input members at fault. */
export const errorResource: Schema = {
  type: 'object',
  required: ['message', 'code', 'request_id'],
  properties: {
    message: { type: 'string', description: 'What is wrong, in a sentence meant for a developer.' },
    code: { type: 'string', description: 'Stable snake_case code, e.g. `validation_error`, `not_found`, `invoice_not_editable`.' },
    errors: {
      type: 'array',
      description: 'Present on input errors: one entry per member at fault.',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: {
          path: { type: 'string', description: 'Where the member is: `body.line_items.0.quantity`, `query.take`, `path.id`.' },
          message: { type: 'string' },
        },
      },
    },
    request_id: { type: 'string', description: 'Also sent as the `X-Request-Id` header; quote it when reporting a problem.' },
  },
  examples: [{ message: 'The request is invalid.', code: 'validation_error', errors: [{ path: 'body.name', message: 'is required' }], request_id: '2f1c0e7a-5b8e-4d43-9c55-0c7a1d7c4f10' }],
};

/**
 * The OAuth error body (`{error, error_description}`) of the OAuth routes' 400 answers: RFC 7591 §3.2.2 for
 * `POST /oauth/register`, RFC 6749 §5.2 (and RFC 8707's `invalid_target`) for `POST /oauth/token`; and of their 429
 * (`temporarily_unavailable`, docs/rate-limits.md).
 */
export const oauthErrorResource: Schema = {
  type: 'object',
  required: ['error', 'error_description'],
  properties: {
    error: {
      type: 'string',
      enum: [
        'invalid_redirect_uri', 'invalid_client_metadata',
        'invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope', 'invalid_target',
        'temporarily_unavailable',
      ],
    },
    error_description: { type: 'string' },
  },
};
