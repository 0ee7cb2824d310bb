import { api, ok, type Schemas } from '../api/client';
import type { paths } from '../api/schema';
import { t, type MessageKey } from '../i18n';
import { formDialog, notify, refresh, type Field } from '../ui';

type Entity = Schemas['InvoicingEntity'];
type EntityBody = NonNullable<paths['/v1/invoicing-entities/{id}']['put']['requestBody']>['content']['application/json'];

/** Text members an operator sets and may clear (an empty field sends null): each with its label. */
const CLEARABLE: Array<[keyof Entity & string, MessageKey]> = [
  ['trade_name', 'tradeName'], ['address_line1', 'addressLine1'], ['address_line2', 'addressLine2'], ['zip_code', 'zipCode'], ['city', 'city'],
  ['state', 'state'], ['registration_number', 'registrationNumber'], ['legal_form', 'legalForm'], ['tax_id', 'taxId'], ['billing_email', 'billingEmail'],
  ['payment_terms', 'paymentTerms'], ['invoice_late_fees', 'lateFees'], ['logo_url', 'logoUrl'], ['brand_color', 'brandColor'],
];
const FLAGS: Array<[keyof Entity & string, MessageKey]> = [
  ['tax_collection_enabled', 'taxCollection'], ['facturx_enabled', 'facturx'], ['wallet_collection_enabled', 'walletCollection'], ['credit_note_wallet_refund_enabled', 'creditNoteWalletRefund'],
];

/** The entity's identity, address and invoicing: what its documents say and how they are numbered and due. */
export function editEntityDetails(entity: Entity): void {
  const text = (name: keyof Entity & string) => (entity[name] === null || entity[name] === undefined ? '' : String(entity[name]));
  const fields: Field[] = [
    { name: 'name', label: t('name'), required: true, value: entity.name },
    ...CLEARABLE.map(([name, label]): Field => ({ name, label: t(label), type: name === 'billing_email' ? 'email' : 'text', value: text(name) })),
    { name: 'default_payment_delay', label: t('paymentDelayDays'), type: 'number', required: true, value: String(entity.default_payment_delay) },
    { name: 'invoice_grace_period_duration', label: t('gracePeriodDays'), type: 'number', required: true, value: String(entity.invoice_grace_period_duration), hint: t('gracePeriodHint') },
    { name: 'invoice_number_pattern', label: t('invoiceNumberPattern'), required: true, value: entity.invoice_number_pattern },
    { name: 'credit_note_number_pattern', label: t('creditNoteNumberPattern'), required: true, value: entity.credit_note_number_pattern },
    { name: 'invoice_footer', label: t('invoiceFooter'), type: 'textarea', value: entity.invoice_footer },
    ...FLAGS.map(([name, label]): Field => ({ name, label: t(label), type: 'checkbox', value: entity[name] ? 'yes' : '' })),
  ];
  formDialog({
    title: t('editEntityDetails', { name: entity.name }),
    submitLabel: t('save'),
    fields,
    async onSubmit(v) {
      const body: Record<string, unknown> = {
        name: v.name,
        ...Object.fromEntries(CLEARABLE.map(([name]) => [name, v[name]?.trim() || null])),
        ...Object.fromEntries(FLAGS.map(([name]) => [name, v[name] === 'yes'])),
        default_payment_delay: Number(v.default_payment_delay),
        invoice_grace_period_duration: Number(v.invoice_grace_period_duration),
        invoice_number_pattern: v.invoice_number_pattern,
        credit_note_number_pattern: v.credit_note_number_pattern,
        invoice_footer: v.invoice_footer ?? '',
      };
      ok(await api.PUT('/v1/invoicing-entities/{id}', { params: { path: { id: entity.id } }, body: body as EntityBody }));
      notify(t('entitySaved', { name: v.name! }));
      await refresh();
    },
  });
}
