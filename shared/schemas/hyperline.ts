import { dateTime, nullable, text, type Schema } from './common';

/**
 * The members of Hyperline's request bodies that this API accepts beside its own (docs/hyperline.md), kept apart so
 * that each route's own schema stays readable. Their meaning here: shared/domain/hyperline/.
 */

/** `POST /v1/invoices`: Hyperline's import members. */
export const hyperlineInvoiceMembers: Record<string, Schema> = {
  number: { ...text(255, 1), description: 'Hyperline: the number the invoice had elsewhere. Kept as `reference`; this service numbers invoices itself (docs/hyperline.md).' },
  payment_method_strategy: {
    type: 'string', enum: ['current', 'external'],
    description: "Hyperline: `external` = paid outside the service (collection_method `manual`); `current` = the customer's payment method (collection_method unset: theirs).",
  },
  settled_at: { ...dateTime, description: 'Hyperline: when a `paid` invoice was paid (the recorded payment\'s process_at; default now). Only with status `paid`.' },
};

/** A line's period under Hyperline's names (aliases of period_starts_at/period_ends_at; not both). */
export const hyperlineLineMembers: Record<string, Schema> = {
  period_start: { ...nullable(dateTime), description: 'Hyperline name of period_starts_at.' },
  period_end: { ...nullable(dateTime), description: 'Hyperline name of period_ends_at.' },
};

/** `POST /v1/subscriptions/{id}/cancel`: Hyperline's members (`mode`/`prorate` stay). */
export const hyperlineCancelMembers: Record<string, Schema> = {
  cancel_at: {
    anyOf: [{ type: 'string', enum: ['immediately', 'end_of_period'] }, dateTime],
    description: "Hyperline: when. `immediately`, `end_of_period`, or a date-time: now or past = immediately, the current period's end = end_of_period; other dates are refused (422).",
  },
  pro_rata: { type: 'boolean', description: 'Hyperline name of `prorate`.' },
};

/** `POST /v1/wallets/{id}/load`: Hyperline's members (`type`/`amount` stay). */
export const hyperlineLoadMembers: Record<string, Schema> = {
  amount_free: { type: 'integer', minimum: 1, maximum: 1e15, description: 'Hyperline: offered funds (a `free` load). Without `type`, `amount` means paid funds.' },
};
