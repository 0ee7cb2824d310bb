import { requireAll } from './common';
import { PAYMENT_PROVIDER_NAMES } from '../domain/payments/provider';
import { id, object, text, type Schema } from './common';
import { pagingQuery } from './list-query';

export const paymentMethodCreateBody = object(
  {
    token: text(255, 1),
    type: { type: 'string', enum: ['card'] },
    provider: { type: 'string', enum: PAYMENT_PROVIDER_NAMES },
    set_as_default: { type: 'boolean' },
  },
  ['token'],
);

export const paymentMethodPath = object({ id, pmId: id }, ['id', 'pmId']);

export const paymentMethodListQuery: Schema = { type: 'object', additionalProperties: false, properties: { ...pagingQuery } };

const str = { type: 'string' };

export const paymentMethodResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: str,
    customer_id: str,
    type: { type: 'string', enum: ['card'] },
    provider: { type: 'string', enum: PAYMENT_PROVIDER_NAMES },
    card: {
      type: 'object',
      properties: { brand: str, last4: str, exp_month: { type: 'integer' }, exp_year: { type: 'integer' } },
    },
    is_default: { type: 'boolean' },
    created_at: str,
    updated_at: str,
    deleted_at: { type: ['string', 'null'] },
  },
});

const nullable = (type: string) => ({ type: [type, 'null'] });

/** The payment method summary (customer `current_payment_method`, transaction `payment_method`). */
export const paymentMethodSummary: Schema = {
  type: 'object',
  required: ['id', 'status', 'type', 'last_4_digits', 'expiration_date', 'brand'],
  properties: {
    id: nullable('string'), status: nullable('string'), type: { type: 'string' }, last_4_digits: nullable('integer'),
    expiration_date: { anyOf: [{ type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' }, { type: 'null' }] }, brand: nullable('string'),
  },
};
