import { api, ok, type Schemas } from '../api/client';
import { can } from '../auth';
import { h } from '../dom';
import { t } from '../i18n';
import { actionButton, details, formDialog, notify, refresh, screen, type Field } from '../ui';
import { editEntityDetails } from './settings-entity';
import { providerSection } from './settings-provider';

type Entity = Schemas['InvoicingEntity'];
type Delay = { period: 'hours' | 'days'; count: number };
const EMAILS = ['invoice_issued', 'invoice_paid', 'invoice_reminder', 'payment_failed', 'payment_action_required', 'credit_note_issued', 'quote_sent', 'trial_ending', 'card_expiring', 'portal_link'] as const;
const PORTAL = ['allow_cancel', 'allow_plan_change', 'allow_quantity_change', 'allow_billing_details_update'] as const;

/** A retry schedule as operators write it: `2h, 12h, 1d, 3d` (hours, days). */
const scheduleText = (schedule: Delay[]) => schedule.map((d) => `${d.count}${d.period === 'hours' ? 'h' : 'd'}`).join(', ');
function parseSchedule(text: string): Delay[] {
  return text.split(',').map((s) => s.trim()).filter(Boolean).map((part) => {
    const match = /^(\d+)\s*([hd])$/i.exec(part);
    if (!match) throw new Error(t('badSchedule', { part }));
    return { count: Number(match[1]), period: match[2]!.toLowerCase() === 'h' ? 'hours' : 'days' };
  });
}

/** Edits what the dashboard knows of collection, emails and the portal; the API checks the rest (its errors shown). */
function editEntity(entity: Entity): void {
  const yes = (on: boolean) => (on ? 'yes' : '');
  const fields: Field[] = [
    { name: 'dunning', label: t('dunningSchedule'), value: scheduleText(entity.dunning_retry_schedule as Delay[]), hint: t('dunningScheduleHint') },
    { name: 'dunning_final_action', label: t('dunningFinalAction'), type: 'select', value: entity.dunning_final_action, options: (['none', 'mark_uncollectible', 'cancel_subscription'] as const).map((a): [string, string] => [a, a.replace(/_/g, ' ')]) },
    { name: 'email_from', label: t('emailFrom'), type: 'email', value: entity.email_from ?? '', hint: t('emailFromHint') },
    { name: 'email_reply_to', label: t('emailReplyTo'), type: 'email', value: entity.email_reply_to ?? '' },
    ...EMAILS.map((kind): Field => ({ name: `email.${kind}`, label: t('sendEmail', { kind: kind.replace(/_/g, ' ') }), type: 'checkbox', value: yes(entity.email_settings[kind]) })),
    ...PORTAL.map((member): Field => ({ name: `portal.${member}`, label: t('portalAllows', { what: member.replace(/^allow_/, '').replace(/_/g, ' ') }), type: 'checkbox', value: yes(entity.portal_settings[member]) })),
    { name: 'cancel_mode', label: t('portalCancelMode'), type: 'select', value: entity.portal_settings.cancel_mode, options: [['end_of_period', 'end of period'], ['immediately', 'immediately']] },
  ];
  formDialog({
    title: t('editEntity', { name: entity.name }),
    submitLabel: t('save'),
    fields,
    async onSubmit(v) {
      const body = {
        dunning_retry_schedule: parseSchedule(v.dunning ?? ''),
        dunning_final_action: v.dunning_final_action as Entity['dunning_final_action'],
        email_from: v.email_from || null,
        email_reply_to: v.email_reply_to || null,
        email_settings: Object.fromEntries(EMAILS.map((kind) => [kind, v[`email.${kind}`] === 'yes'])),
        portal_settings: { ...entity.portal_settings, ...Object.fromEntries(PORTAL.map((m) => [m, v[`portal.${m}`] === 'yes'])), cancel_mode: v.cancel_mode as 'end_of_period' | 'immediately' },
      };
      ok(await api.PUT('/v1/invoicing-entities/{id}', { params: { path: { id: entity.id } }, body }));
      notify(t('entitySaved', { name: entity.name }));
      await refresh();
    },
  });
}

/** Settings: the invoicing entities (collection, emails, portal) and the payment provider's connection. */
export function settingsScreen(main: HTMLElement) {
  return screen(main, t('settings'), async () => {
    const [entities, providers] = await Promise.all([
      api.GET('/v1/invoicing-entities', { params: { query: { take: 100 } } }).then(ok),
      can('admin') ? api.GET('/v1/payment-providers').then(ok) : Promise.resolve(undefined),
    ]);
    const on = (flags: Record<string, unknown>) => Object.entries(flags).filter(([, v]) => v === true).map(([k]) => k.replace(/_/g, ' ')).join(', ') || '—';
    return [
      h('h1', {}, t('settings')),
      h('h2', {}, t('invoicingEntities')),
      ...entities.data.map((entity) =>
        h('section', { class: 'entity', 'aria-labelledby': `ent-${entity.id}` },
          h('div', { class: 'title-row' }, h('h3', { id: `ent-${entity.id}` }, entity.name), can('write') ? h('div', { class: 'toolbar' },
            actionButton(t('edit'), () => editEntity(entity), { 'aria-label': t('editEntity', { name: entity.name }) }),
            actionButton(t('editDetails'), () => editEntityDetails(entity), { 'aria-label': t('editEntityDetails', { name: entity.name }) })) : null),
          details([
            [t('currency'), entity.currency],
            [t('address'), [entity.address_line1, entity.address_line2, [entity.zip_code, entity.city].filter(Boolean).join(' '), entity.country].filter(Boolean).join(', ')],
            [t('taxId'), entity.tax_id],
            [t('paymentDelayDays'), String(entity.default_payment_delay)],
            [t('invoiceNumberPattern'), h('code', {}, entity.invoice_number_pattern)],
            [t('dunningSchedule'), scheduleText(entity.dunning_retry_schedule as Delay[]) || t('noRetries')],
            [t('dunningFinalAction'), entity.dunning_final_action.replace(/_/g, ' ')],
            [t('emailFrom'), entity.email_from ?? t('noEmails')],
            [t('emailsSent'), on(entity.email_settings)],
            [t('portalSettings'), `${on(entity.portal_settings)}; ${t('portalCancelMode')}: ${entity.portal_settings.cancel_mode.replace(/_/g, ' ')}`],
          ]))),
      h('h2', {}, t('paymentProvider')),
      providers
        ? providerSection(providers.data)
        : h('p', { class: 'hint' }, t('noAdmin')),
    ];
  });
}
