import { requireAll } from './common';
import { EVENT_TYPES } from '../domain/events/catalog';
import { dateTime, nullable, object, text, uri, type Schema } from './common';
import { pagingQuery } from './list-query';
import { MIN_MAGNITUDE } from './metadata';

const eventType = { type: 'string', enum: EVENT_TYPES };
const one = `(${EVENT_TYPES.map((t) => t.replace(/\./g, '\\.')).join('|')})`;
/** API Gateway joins a repeated query parameter with commas: `event_types=a&event_types=b` arrives as `a,b`. */
const eventTypeList = { type: 'string', pattern: `^${one}(,${one})*$` };

const endpointMembers = {
  url: uri,
  description: nullable(text(500)),
  event_types: nullable({ type: 'array', minItems: 1, maxItems: EVENT_TYPES.length, uniqueItems: true, items: eventType }),
  secret: { type: 'string', minLength: 10, maxLength: 200, description: '`whsec_` + the base64 of 24 to 64 random bytes, or (as Hyperline) that base64 alone.' },
  rate_limit: {
    ...nullable({ type: 'number', exclusiveMinimum: 0, maximum: 10_000, 'x-min-magnitude': MIN_MAGNITUDE }),
    description: "Hyperline's deliveries per second: stored and returned; deliveries here are not paced by it (docs/events.md).",
  },
};

export const endpointCreateBody = object(endpointMembers, ['url']);
export const endpointUpdateBody = object({ ...endpointMembers, status: { type: 'string', enum: ['enabled', 'disabled'] } });
export const pagingOnlyQuery = { type: 'object', additionalProperties: false, properties: { ...pagingQuery } };

export const messageListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    before: dateTime,
    after: dateTime,
    event_types: eventTypeList,
    'event_types[]': eventTypeList,
    limit: { type: 'integer', minimum: 1, maximum: 250, default: 50 },
    iterator: { type: 'string', minLength: 1, maxLength: 4096 },
  },
};

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };

export const endpointResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: str, url: str, description: nstr, event_types: { type: ['array', 'null'], items: str }, rate_limit: { type: ['number', 'null'] },
    status: { type: 'string', enum: ['enabled', 'disabled'] }, disabled_reason: nstr, created_at: str, updated_at: str,
    secret: { type: 'string', description: 'Only in the response that created the endpoint.' },
  },
}, ['secret']);

export const messageResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: str, event_id: str, sent_at: str,
    payload: {
      type: 'object',
      required: ['event_type', 'data'],
      properties: {
        event_type: str,
        data: { type: 'object', additionalProperties: true, description: 'The resource the event is about, as its GET route returns it.' },
        truncated: { type: 'array', items: str, description: 'Members of data omitted (null) to keep the message bounded; absent when none were.' },
      },
    },
  },
});

export const messageListResource: Schema = requireAll({
  type: 'object',
  properties: { meta: { type: 'object', properties: { iterator: nstr } }, data: { type: 'array', items: messageResource } },
});

export const attemptResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: str, message_id: str, endpoint_id: str, attempt: { type: 'integer' }, status: { type: 'string', enum: ['succeeded', 'failed'] },
    status_code: { type: ['integer', 'null'] }, error: nstr, duration_ms: { type: 'integer' }, attempted_at: str,
  },
});
