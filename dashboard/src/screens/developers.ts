import { api, ok } from '../api/client';
import { apiUrl, can } from '../auth';
import { h } from '../dom';
import { dateTime } from '../format';
import { t } from '../i18n';
import { actionButton, badge, confirmAction, formDialog, notify, refresh, screen, table } from '../ui';

/** API keys (created once, shown once; revoked), webhook endpoints with their delivery attempts, the message log with resend. */
export function developersScreen(main: HTMLElement) {
  return screen(main, t('developers'), async () => {
    const [endpoints, messages, keys] = await Promise.all([
      api.GET('/v1/webhooks/endpoints', { params: { query: { take: 50 } } }).then(ok),
      api.GET('/v1/webhooks/messages', { params: { query: { limit: 25 } } }).then(ok),
      can('admin') ? api.GET('/v1/api-keys').then(ok) : Promise.resolve(undefined),
    ]);
    const createKey = () =>
      formDialog({
        title: t('createApiKey'),
        submitLabel: t('create'),
        fields: [
          { name: 'name', label: t('name'), required: true },
          { name: 'write', label: t('scopeWrite'), type: 'checkbox', value: 'yes' },
          { name: 'admin', label: t('scopeAdmin'), type: 'checkbox' },
        ],
        onSubmit: async (v) => {
          const scopes: Array<'read' | 'write' | 'admin'> = ['read', ...(v.write ? ['write' as const] : []), ...(v.admin ? ['admin' as const] : [])];
          const created = ok(await api.POST('/v1/api-keys', { body: { name: v.name!, scopes } }));
          await refresh();
          // Shown once: the API never returns the key again.
          formDialog({
            title: t('apiKeyCreated'),
            intro: t('apiKeyShownOnce'),
            fields: [{ name: 'key', label: t('apiKey'), value: created.key }],
            submitLabel: t('done'),
            onSubmit: async () => undefined,
          });
        },
      });
    const revoke = (id: string, name: string) =>
      confirmAction(t('revoke'), t('revokeText', { name }), t('revoke'), async () => {
        ok(await api.DELETE('/v1/api-keys/{id}', { params: { path: { id } } }));
        notify(t('apiKeyRevoked', { name }));
        await refresh();
      });
    // An endpoint's last delivery attempts, newest first: why a webhook failed (its HTTP status or error) and when.
    const showAttempts = async (endpoint: { id: string; url: string }) => {
      const attempts = ok(await api.GET('/v1/webhooks/endpoints/{id}/attempts', { params: { path: { id: endpoint.id }, query: { take: 25 } } }));
      formDialog({
        title: t('deliveryAttemptsOf', { url: endpoint.url }),
        content: table(t('deliveryAttempts'), [
          { label: t('sent'), cell: (a) => dateTime(a.attempted_at) },
          { label: t('message'), cell: (a) => h('code', {}, a.message_id) },
          { label: t('attempt'), cell: (a) => String(a.attempt), numeric: true },
          { label: t('status'), cell: (a) => badge(a.status) },
          { label: t('httpStatus'), cell: (a) => (a.status_code === null ? '' : String(a.status_code)), numeric: true },
          { label: t('error'), cell: (a) => a.error ?? '' },
        ], attempts.data, t('noAttempts')),
        fields: [],
        submitLabel: t('done'),
        onSubmit: async () => undefined,
      });
    };
    const resend = async (id: string) => {
      ok(await api.POST('/v1/webhooks/messages/{id}/retry', { params: { path: { id } } }));
      notify(t('messageResent'));
    };
    return [
      h('h1', {}, t('developers')),
      keys
        ? h(
            'section',
            { 'aria-labelledby': 'keys-title' },
            h('div', { class: 'title-row' }, h('h2', { id: 'keys-title' }, t('apiKeys')), actionButton(t('createApiKey'), createKey, { class: 'primary' })),
            table(t('apiKeys'), [
              { label: t('name'), cell: (k) => k.name },
              { label: t('key'), cell: (k) => h('code', {}, k.redacted_key) },
              { label: t('scopes'), cell: (k) => k.scopes.join(' ') },
              { label: t('lastUsed'), cell: (k) => dateTime(k.last_used_at) },
              {
                label: t('actions'),
                cell: (k) => (k.revoked_at ? t('revokedOn', { date: dateTime(k.revoked_at) }) : actionButton(t('revoke'), () => revoke(k.id, k.name), { class: 'danger', 'aria-label': t('revokeNamed', { name: k.name }) })),
              },
            ], keys.data, t('noApiKeys')),
          )
        : h('p', { class: 'hint' }, t('adminNeeded')),
      h('h2', {}, t('webhookEndpoints')),
      table(t('webhookEndpoints'), [
        { label: 'URL', cell: (e) => e.url },
        { label: t('events'), cell: (e) => e.event_types?.join(', ') ?? t('allEvents') },
        { label: t('status'), cell: (e) => badge(e.status) },
        { label: t('deliveryAttempts'), cell: (e) => actionButton(t('deliveryAttempts'), () => void showAttempts(e), { 'aria-label': t('deliveryAttemptsOf', { url: e.url }) }) },
      ], endpoints.data, t('noEndpoints')),
      h('h2', {}, t('messages')),
      table(t('messages'), [
        { label: t('event'), cell: (m) => m.payload.event_type },
        { label: t('sent'), cell: (m) => dateTime(m.sent_at) },
        { label: 'id', cell: (m) => h('code', {}, m.id) },
        { label: t('actions'), cell: (m) => (can('write') ? actionButton(t('resend'), () => void resend(m.id), { 'aria-label': t('resendNamed', { id: m.id }) }) : '') },
      ], messages.data, t('noMessages')),
      h('h2', {}, t('mcp')),
      h('p', {}, t('mcpText', { url: `${apiUrl()}/mcp` })),
    ];
  });
}
