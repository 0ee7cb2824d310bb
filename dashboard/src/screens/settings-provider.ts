import { api, ok } from '../api/client';
import type { operations } from '../api/schema';
import { h } from '../dom';
import { dateTime } from '../format';
import { t } from '../i18n';
import { actionButton, badge, confirmAction, details, formDialog, notify, refresh } from '../ui';

type Connection = operations['listPaymentProviders']['responses'][200]['content']['application/json']['data'][number];

/** Connects Stripe, or replaces its keys (PUT /v1/payment-providers/stripe; admin scope): the secrets are sent once, never shown again. */
function connectStripe(connected: boolean): void {
  formDialog({
    title: connected ? t('replaceStripeKeys') : t('connectStripe'),
    intro: t('connectStripeText'),
    submitLabel: connected ? t('replaceStripeKeys') : t('connectStripe'),
    fields: [
      { name: 'secret_key', label: t('stripeSecretKey'), required: true, hint: t('stripeSecretKeyHint') },
      { name: 'publishable_key', label: t('stripePublishableKey'), required: true },
      { name: 'webhook_secret', label: t('stripeWebhookSecret'), hint: t('stripeWebhookSecretHint') },
    ],
    async onSubmit(v) {
      const made = ok(await api.PUT('/v1/payment-providers/stripe', {
        body: { secret_key: v.secret_key!.trim(), publishable_key: v.publishable_key!.trim(), ...(v.webhook_secret?.trim() && { webhook_secret: v.webhook_secret.trim() }) },
      }));
      notify(t('stripeConnected', { account: made.account_id }));
      await refresh();
    },
  });
}

/** The payment provider's connection (admin only): what it is, where Stripe sends its events, connect, replace, disconnect. */
export function providerSection(connections: Connection[]): HTMLElement {
  const stripe = connections.find((c) => c.provider === 'stripe' && c.status === 'connected');
  if (!stripe) {
    return h('div', {}, h('p', { class: 'empty' }, t('noProvider')), h('div', { class: 'toolbar' }, actionButton(t('connectStripe'), () => connectStripe(false), { class: 'primary' })));
  }
  return h(
    'div',
    {},
    details([
      [t('provider'), 'Stripe'],
      [t('status'), badge(stripe.status)],
      [t('mode'), stripe.livemode ? 'live' : 'test'],
      [t('account'), h('code', {}, stripe.account_id)],
      [t('stripeSecretKey'), `…${stripe.secret_key_last4}`],
      [t('stripePublishableKey'), h('code', {}, stripe.publishable_key)],
      [t('webhookUrl'), h('code', {}, stripe.webhook_url)],
      [t('webhook'), stripe.webhook_secret_configured ? t('yes') : t('no')],
      [t('connectedAt'), dateTime(stripe.connected_at)],
    ]),
    h('div', { class: 'toolbar' },
      actionButton(t('replaceStripeKeys'), () => connectStripe(true)),
      actionButton(t('disconnectStripe'), () =>
        confirmAction(t('disconnectStripe'), t('disconnectStripeText'), t('disconnectStripe'), async () => {
          ok(await api.DELETE('/v1/payment-providers/stripe'));
          notify(t('stripeDisconnected'));
          await refresh();
        }),
      { class: 'danger' })),
  );
}
