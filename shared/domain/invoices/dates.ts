const DAY = 24 * 60 * 60 * 1000;

export const addDays = (iso: string, days: number): string => new Date(Date.parse(iso) + days * DAY).toISOString();

/** decisions.md: due_at = emitted_at + the customer's `custom_payment_delay`, else the entity's `default_payment_delay`. */
export const paymentDelay = (customer: { custom_payment_delay: number | null }, entity: { default_payment_delay: number }): number =>
  customer.custom_payment_delay ?? entity.default_payment_delay;
