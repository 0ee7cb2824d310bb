import { CONNECTABLE_PROVIDERS } from '../domain/payment-providers/connection';
import { enumOf, object, out, resource, type Schema } from './common';

const KEY_BODY = '[0-9A-Za-z]{10,250}';

export const stripeConnectionBody = object(
  {
    secret_key: {
      type: 'string', pattern: `^(sk|rk)_(test|live)_${KEY_BODY}$`,
      description: 'A secret (`sk_…`) or restricted (`rk_…`) key of the Stripe account, of the workspace\'s mode. Stored encrypted; never returned.',
    },
    publishable_key: { type: 'string', pattern: `^pk_(test|live)_${KEY_BODY}$`, description: 'For Stripe.js on the hosted pages and the merchant\'s frontend.' },
    webhook_secret: {
      type: 'string', pattern: '^whsec_[0-9A-Za-z+/=]{10,250}$',
      description: 'The signing secret of the webhook endpoint registered in Stripe\'s dashboard at `webhook_url`. Stored encrypted; never returned.',
    },
  },
  ['secret_key', 'publishable_key'],
);

export const providerConnectionResource: Schema = resource({
  provider: enumOf(CONNECTABLE_PROVIDERS),
  status: enumOf(['connected', 'disconnected']),
  livemode: out.boolean,
  account_id: { type: 'string', description: 'The Stripe account the secret key belongs to (`acct_…`).' },
  secret_key_last4: out.string,
  publishable_key: out.string,
  webhook_url: { type: 'string', description: 'Where Stripe must send this workspace\'s events (register it in Stripe\'s dashboard).' },
  webhook_secret_configured: out.boolean,
  connected_at: out.dateTime,
});

export const stripeWebhookPath = object(
  { workspace_id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'The workspace whose Stripe account sends the event (its `webhook_url`).' } },
  ['workspace_id'],
);

export const stripeEventReceipt: Schema = resource({
  received: out.boolean,
  id: { type: 'string', description: 'Stripe\'s event id (`evt_…`).' },
  type: { type: 'string', description: 'Stripe\'s event type.' },
  outcome: {
    ...enumOf(['settled', 'still_pending', 'recorded', 'nothing', 'duplicate', 'ignored']),
    description: 'What the event did: `settled` an invoice\'s pending charge or a credit note\'s pending refund, found it `still_pending`, `recorded` a dispute (`chargeback`) or a saved payment method\'s change (detached: deleted; card updated; saved from a SetupIntent), `nothing` to do, a `duplicate` of an event applied before, or `ignored` (a type or mode not applied).',
  },
});

export const stripeSyncResult: Schema = resource({
  checked: { type: 'integer', description: 'Invoices whose charge (or credit notes whose refund) had been pending for more than an hour.' },
  settled: { type: 'integer', description: 'Of them, paid or failed now from what Stripe says.' },
  still_pending: { type: 'integer', description: 'Of them, still pending at Stripe (checked again daily).' },
  more: { type: 'boolean', description: 'More pending charges are due than one sync checks (100): call it again.' },
});
