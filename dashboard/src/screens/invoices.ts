import { api, idempotencyKey, ok, type Schemas } from '../api/client';
import { can, currentToken } from '../auth';
import { h, replace } from '../dom';
import { currencyDigits, date, money, toMinor } from '../format';
import { t } from '../i18n';
import { actionButton, badge, confirmAction, details, errorBox, filterForm, formDialog, link, notify, PAGE_SIZE, pager, refresh, screen, table } from '../ui';
import { invoiceColumns } from './customers';
import { chargeButton } from './invoice-charge';

type Invoice = Schemas['Invoice'];
const STATUSES = ['draft', 'open', 'grace_period', 'to_pay', 'partially_paid', 'error', 'paid', 'voided', 'uncollectible'] as const;

/** Invoices and credit notes: by status, type, customer and issue date, paged by the API. */
export function invoicesScreen(main: HTMLElement, _params: Record<string, string>, query: URLSearchParams) {
  return screen(main, t('invoices'), async () => {
    const q = (name: string) => query.get(name) || undefined;
    const page = ok(
      await api.GET('/v1/invoices', {
        params: {
          query: {
            status: q('status') as Invoice['status'] | undefined,
            type: q('type') as Invoice['type'] | undefined,
            customer_id: q('customer_id'),
            emitted_at__gte: q('from'),
            emitted_at__lte: q('to'),
            take: PAGE_SIZE,
            skip: Number(query.get('skip') ?? 0),
            sort: '-created_at',
          },
        },
      }),
    );
    return [
      h('h1', {}, t('invoices')),
      filterForm(
        [
          { name: 'status', label: t('status'), type: 'select', options: [['', t('any')], ...STATUSES.map((s): [string, string] => [s, s.replace(/_/g, ' ')])] },
          { name: 'type', label: t('type'), type: 'select', options: [['', t('any')], ['invoice', t('invoice')], ['credit_note', t('creditNote')]] },
          { name: 'customer_id', label: t('customerId'), type: 'text' },
          { name: 'from', label: t('issuedFrom'), type: 'date' },
          { name: 'to', label: t('issuedTo'), type: 'date' },
        ],
        query,
      ),
      table(t('invoices'), invoiceColumns(), page.data, query.size ? t('noMatch') : t('noInvoices')),
      pager(page.meta, query),
    ];
  });
}

/** Downloads a document of the invoice with the bearer token, as an object URL (the CSP allows no other source). */
async function documentUrl(id: string, format: 'pdf' | 'facturx' | 'ubl' | 'cii'): Promise<string> {
  const response = await fetch(`/v1/invoices/${encodeURIComponent(id)}/download?format=${format}`, { headers: { authorization: `Bearer ${await currentToken()}` } });
  if (!response.ok) throw new Error(((await response.json()) as { message?: string }).message ?? String(response.status));
  return URL.createObjectURL(await response.blob());
}

export function invoiceScreen(main: HTMLElement, params: Record<string, string>) {
  const id = params.id!;
  const path = { path: { id } };
  return screen(main, t('invoice'), async () => {
    const invoice = ok(await api.GET('/v1/invoices/{id}', { params: path }));
    const title = invoice.type === 'credit_note' ? t('creditNoteNumber', { number: invoice.number ?? t('draft') }) : t('invoiceNumber', { number: invoice.number ?? t('draft') });
    const pdf = h('div', { class: 'pdf' });
    const downloads = h('div', { class: 'toolbar' });
    const issued = invoice.status !== 'draft';
    if (issued) {
      documentUrl(id, 'pdf').then(
        (url) => replace(pdf, h('iframe', { src: url, title: t('pdfOf', { title }) })),
        (error: unknown) => replace(pdf, errorBox(error)),
      );
      const names = { facturx: 'Factur-X', ubl: 'UBL', cii: 'CII' } as const;
      for (const format of ['facturx', 'ubl', 'cii'] as const) {
        downloads.append(
          actionButton(t('download', { format: names[format] }), () =>
            void documentUrl(id, format).then((url) => {
              const anchor = h('a', { href: url, download: `${invoice.number ?? id}.${format === 'facturx' ? 'pdf' : 'xml'}` });
              anchor.click();
              setTimeout(() => URL.revokeObjectURL(url), 10_000);
            }, (error: unknown) => notify(String((error as Error).message))),
          ),
        );
      }
    }
    const amount = (minor: number) => money(minor, invoice.currency);
    return [
      h('div', { class: 'title-row' }, h('h1', {}, title), badge(invoice.status)),
      can('write') ? invoiceActions(invoice) : null,
      details([
        [t('customer'), link(`/dashboard/customers/${encodeURIComponent(invoice.customer_id)}`, invoice.customer.name)],
        [t('issued'), date(invoice.emitted_at)],
        [t('dueDate'), date(invoice.due_at)],
        [t('total'), amount(invoice.total_amount)],
        [t('paid'), amount(invoice.amount_paid)],
        [t('credited'), amount(invoice.amount_credited)],
        [t('due'), amount(invoice.amount_due)],
        ['id', h('code', {}, invoice.id)],
      ]),
      h('h2', {}, t('lines')),
      table(t('lines'), [
        { label: t('description'), cell: (l) => l.name },
        { label: t('quantity'), cell: (l) => String(l.units_count), numeric: true },
        { label: t('total'), cell: (l) => amount(l.amount), numeric: true },
      ], invoice.line_items, t('noLines')),
      issued ? h('h2', {}, t('documents')) : null,
      downloads,
      pdf,
    ];
  });
}

const MONEY_STATUSES: Invoice['status'][] = ['open', 'to_pay', 'partially_paid', 'grace_period'];

/** What can be done to the invoice in its state; money moves and voids are confirmed first. */
function invoiceActions(invoice: Invoice): HTMLElement {
  const path = { path: { id: invoice.id } };
  const amountField = (label: string, value: number) => ({
    name: 'amount', label, required: true, inputmode: 'decimal', value: (value / 10 ** currencyDigits(invoice.currency)).toFixed(currencyDigits(invoice.currency)), hint: t('amountHint', { currency: invoice.currency }),
  });
  const minor = (text: string | undefined) => {
    const value = toMinor(text ?? '', invoice.currency);
    if (value === undefined || value <= 0) throw new Error(t('invalidAmount', { currency: invoice.currency }));
    return value;
  };
  const then = (message: string) => async () => {
    notify(message);
    await refresh();
  };
  const buttons: Array<HTMLElement | null> = [];
  if (invoice.status === 'draft') {
    buttons.push(actionButton(t('validate'), () =>
      confirmAction(t('validate'), t('validateText'), t('validate'), async () => {
        ok(await api.POST('/v1/invoices/{id}/validate', { params: path }));
        await then(t('invoiceValidated'))();
      }),
    ));
  }
  if (MONEY_STATUSES.includes(invoice.status) && invoice.type === 'invoice') {
    buttons.push(actionButton(t('recordPayment'), () =>
      formDialog({
        title: t('recordPayment'),
        submitLabel: t('recordPayment'),
        danger: true,
        intro: t('recordPaymentText'),
        fields: [
          amountField(t('amount'), invoice.amount_due),
          { name: 'payment_method_type', label: t('paymentMethod'), type: 'select', options: [['transfer', t('transfer')], ['card', t('card')], ['direct_debit', t('directDebit')], ['external', t('external')], ['other', t('other')]] },
          { name: 'comment', label: t('comment'), type: 'text' },
        ],
        onSubmit: async (v) => {
          const body = { amount: minor(v.amount), payment_method_type: v.payment_method_type as 'transfer', comment: v.comment || null };
          ok(await api.POST('/v1/invoices/{id}/transactions', { params: { ...path, header: { 'Idempotency-Key': idempotencyKey() } } as never, body }));
          await then(t('paymentRecorded'))();
        },
      }),
    ));
  }
  // A failed payment leaves the invoice in error: it can be charged again (a retry), to the same or another method.
  if ([...MONEY_STATUSES, 'error'].includes(invoice.status) && invoice.type === 'invoice') buttons.push(chargeButton(invoice));
  if (invoice.status !== 'draft' && invoice.type === 'invoice' && invoice.status !== 'voided') {
    buttons.push(actionButton(t('issueCreditNote'), () =>
      formDialog({
        title: t('issueCreditNote'),
        submitLabel: t('issueCreditNote'),
        danger: true,
        intro: t('creditNoteText'),
        fields: [amountField(t('amount'), invoice.total_amount - invoice.amount_credited), { name: 'reason', label: t('reason'), type: 'text' }],
        onSubmit: async (v) => {
          const note = ok(await api.POST('/v1/invoices/{id}/credit-notes', { params: path, body: { amount: minor(v.amount), reason: v.reason || null } }));
          notify(t('creditNoteIssued', { number: note.number ?? note.id }));
          await refresh();
        },
      }),
    ));
    buttons.push(actionButton(t('sendByEmail'), () =>
      confirmAction(t('sendByEmail'), t('sendText', { email: invoice.customer.email ?? '—' }), t('send'), async () => {
        ok(await api.POST('/v1/invoices/{id}/send', { params: path }));
        await then(t('invoiceSent'))();
      }),
    ));
  }
  if (['open', 'to_pay', 'draft'].includes(invoice.status)) {
    buttons.push(actionButton(t('void'), () =>
      confirmAction(t('void'), t('voidText'), t('void'), async () => {
        ok(await api.POST('/v1/invoices/{id}/void', { params: path }));
        await then(t('invoiceVoided'))();
      }),
    { class: 'danger' }));
  }
  return h('div', { class: 'toolbar' }, buttons);
}
