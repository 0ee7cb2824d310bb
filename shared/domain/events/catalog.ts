/** Every event type of decisions.md ("Webhook messages"), dotted `<object>.<action>`. */
export const EVENT_TYPES = [
  'customer.created', 'customer.updated', 'customer.archived', 'customer.unarchived', 'customer.deleted', 'customer.email_bounced',
  // Hyperline's name of customer.unarchived (docs/hyperline.md): both are emitted.
  'customer.recovered',
  'invoicing_entity.created', 'invoicing_entity.updated',
  'product.created', 'product.updated', 'product.archived', 'product.unarchived',
  'price_configuration.created', 'price_configuration.updated', 'price_configuration.archived',
  'coupon.created', 'coupon.updated', 'coupon.deleted',
  'promotion_code.created', 'promotion_code.updated', 'promotion_code.deleted',
  'aggregator.created', 'aggregator.updated', 'aggregator.deleted',
  'quote.created', 'quote.updated', 'quote.approved', 'quote.sent', 'quote.signed', 'quote.voided',
  'subscription.created', 'subscription.activated', 'subscription.updated', 'subscription.cancelled',
  'subscription.paused', 'subscription.resumed', 'subscription.trial_ending', 'subscription.trial_ended',
  'subscription.migrated', 'entitlements.updated',
  // Hyperline's (docs/hyperline.md).
  'subscription.cancellation_scheduled', 'subscription.reactivated', 'subscription.charged',
  'invoice.created', 'invoice.grace_period.started', 'invoice.ready', 'invoice.settled', 'invoice.errored', 'invoice.voided',
  'invoice.payment_failed', 'invoice.payment_action_required', 'invoice.payment_disputed', 'invoice.reminder_due',
  'credit_note.ready', 'credit_note.settled',
  'wallet.created', 'wallet.updated', 'wallet.credited', 'wallet.debited',
  'credit.created', 'credit.topup_transaction_created', 'credit.usage_transaction_created',
  'credit.expiration_transaction_created', 'credit.low_balance', 'credit.balance_at_zero',
  'payment_method.created', 'payment_method.deleted', 'payment_method.expiring',
  // Hyperline's (docs/hyperline.md): each balance change; a saved method (active at once).
  'credit.updated', 'payment_method.activated',
  'event.price_calculated',
  'alert.triggered',
  'export.completed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** An event the mapping derived from one item change, before it is given ids and stored. */
export interface EventDraft {
  type: EventType;
  /** The resource's public representation. */
  data: object;
}
