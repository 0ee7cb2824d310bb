import { api, ok, type Schemas } from '../api/client';
import { t } from '../i18n';
import { confirmAction, formDialog, notify, refresh, type Field } from '../ui';
import { priceOptions, productOf, prorationPreview } from './subscription-preview';

type Subscription = Schemas['Subscription'];

/**
 * A change of a subscription's products in two dialogs: the new quantities (0 removes a product) and a price to add,
 * then the proration the API computes for them (POST /v2/subscriptions/{id}/preview), confirmed before the PATCH.
 */
export async function changeProducts(subscription: Subscription): Promise<void> {
  const options = await priceOptions(subscription.currency);
  const kept: Field[] = subscription.products.map((p, i) => ({ name: `q${i}`, label: t('quantityOf', { name: p.name }), type: 'number', value: String(p.quantity), required: true }));
  formDialog({
    title: t('changeProducts'),
    intro: t('changeProductsText'),
    submitLabel: t('previewChange'),
    fields: [
      ...kept,
      { name: 'add', label: t('addPrice'), type: 'select', options: [['', t('none')], ...options] },
      { name: 'add_quantity', label: t('quantity'), type: 'number', value: '1' },
      { name: 'effective', label: t('when'), type: 'select', options: [['now', t('effectiveNow')], ['next_period', t('effectiveNextPeriod')]] },
    ],
    onSubmit: async (v) => {
      const products = subscription.products
        .map((p, i) => ({ product_id: p.product_id, price_configuration_id: p.price_configuration_id, quantity: Number(v[`q${i}`]) }))
        .filter((p) => p.quantity > 0);
      if (v.add) products.push(productOf(v.add, v.add_quantity ?? '1'));
      const body = { products, effective: v.effective as 'now' | 'next_period' };
      const path = { path: { id: subscription.id } };
      const preview = ok(await api.POST('/v2/subscriptions/{id}/preview', { params: path, body }));
      // Opened once this dialog has closed (the next task), so that focus returns to the page, then to this one.
      setTimeout(() =>
        confirmAction(t('confirmChange'), t('confirmChangeText'), t('confirmChange'), async () => {
          ok(await api.PATCH('/v2/subscriptions/{id}', { params: path, body }));
          notify(t('subscriptionChanged'));
          await refresh();
        }, prorationPreview(preview)),
      );
    },
  });
}
