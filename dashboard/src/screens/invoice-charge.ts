import { api, ok, type Schemas } from '../api/client';
import { t } from '../i18n';
import { money } from '../format';
import { actionButton, formDialog, notify, refresh } from '../ui';

type Invoice = Schemas['Invoice'];

/**
 * Charges the invoice (POST /v1/invoices/{id}/charge) to one of the customer's saved payment methods, the one it was
 * last charged to (or the customer's default) chosen first; after a failed payment (status `error`), a retry, where
 * another method can be chosen. The answer says whether it was paid or declined again.
 */
export function chargeButton(invoice: Invoice): HTMLElement {
  const retry = invoice.status === 'error';
  const label = retry ? t('retryPayment') : t('charge');
  return actionButton(label, async () => {
    const methods = ok(await api.GET('/v1/customers/{id}/payment-methods', { params: { path: { id: invoice.customer_id } } })).data;
    formDialog({
      title: label,
      intro: t('chargeText', { amount: money(invoice.amount_due, invoice.currency) }),
      submitLabel: label,
      danger: true,
      fields: [{
        name: 'payment_method_id', label: t('paymentMethod'), type: 'select', required: true, value: invoice.payment_method_id ?? undefined,
        options: methods.map((m): [string, string] => [m.id, m.card ? `${m.card.brand} •••• ${m.card.last4}` : m.type]),
      }],
      async onSubmit(v) {
        const charged = ok(await api.POST('/v1/invoices/{id}/charge', { params: { path: { id: invoice.id } }, body: { payment_method_id: v.payment_method_id! } }));
        const last = charged.transactions.at(-1);
        notify(charged.status === 'paid' ? t('paymentSucceeded') : last?.status === 'failed' ? t('paymentDeclined', { reason: last.error_type ?? '—' }) : t('chargeStarted'));
        await refresh();
      },
    });
  });
}
