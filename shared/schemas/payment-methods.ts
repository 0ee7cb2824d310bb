import { requireAll } from './common';
import { PAYMENT_PROVIDER_NAMES, SAVED_METHOD_TYPES } from '../domain/payments/provider-names';
import { enumOf, id, object, out, resource, text, type Schema } from './common';
import { pagingQuery } from './list-query';

export const paymentMethodCreateBody = object(
  {
    token: { ...text(255, 1), description: 'Sandbox: a test token (`tok_visa`…). Stripe: a PaymentMethod id (`pm_…`) from Stripe.js or a SetupIntent, or a Stripe test id (`pm_card_visa`).' },
    type: { type: 'string', enum: SAVED_METHOD_TYPES, description: 'What the token must be; default: what the provider says it is.' },
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
    type: { type: 'string', enum: SAVED_METHOD_TYPES },
    provider: { type: 'string', enum: PAYMENT_PROVIDER_NAMES },
    card: {
      type: ['object', 'null'], description: 'A card\'s details; null for a direct debit.',
      properties: { brand: str, last4: str, exp_month: { type: 'integer' }, exp_year: { type: 'integer' } },
    },
    sepa_debit: {
      type: ['object', 'null'], description: 'A SEPA Direct Debit\'s bank (its code and country, as Stripe reports them) and the last 4 of the IBAN; null for a card.',
      properties: { bank_code: { type: ['string', 'null'] }, country: { type: ['string', 'null'] }, last4: str },
    },
    is_default: { type: 'boolean' },
    status: { type: 'string', enum: ['active', 'deleted'], description: "Hyperline's: `active`, `deleted` once deleted (the summary's status)." },
    last_4_digits: { type: 'integer', description: "Hyperline's: the card's last 4 digits, or the IBAN's for a direct debit, as a number as Hyperline's (leading zeros are lost: `card.last4` and `sepa_debit.last4` keep them)." },
    expiration_date: { anyOf: [{ type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' }, { type: 'null' }], description: "Hyperline's: a card's expiry (year-month); null for a direct debit." },
    brand: { type: ['string', 'null'], description: "Hyperline's: a card's brand; null for a direct debit." },
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

/** A Stripe SetupIntent's share for a frontend: what Stripe.js needs to confirm it. */
export const setupIntentResource: Schema = resource({
  id: { type: 'string', description: 'The SetupIntent (`seti_…`).' },
  provider: enumOf(['stripe']),
  client_secret: { type: 'string', description: 'For Stripe.js only: do not log or store it.' },
  publishable_key: out.string,
});
