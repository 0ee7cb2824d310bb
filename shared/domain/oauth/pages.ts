import { createHash } from 'node:crypto';
import type { PendingRequest } from './authorization-request';

/**
 * The authorization server's pages: plain server-rendered HTML, no script at all, one inline stylesheet allowed by
 * its hash, forms that work without JavaScript. Everything interpolated goes through `escape`.
 */
export const escape = (value: unknown): string =>
  String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a;line-height:1.5}
h1{font-size:1.4rem}.client{display:flex;gap:1rem;align-items:center}.client img{width:48px;height:48px;object-fit:contain}
.warning{background:#fff3cd;border:2px solid #b8860b;padding:.75rem;font-weight:600}.muted{color:#555;font-size:.9rem}
label{display:block;margin:.75rem 0 .25rem}input[type=text]{width:100%;padding:.4rem;box-sizing:border-box}
fieldset{border:1px solid #ccc;margin:1rem 0}button{padding:.5rem 1.2rem;margin-right:.5rem;font-size:1rem}`;
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * Security headers of every page: no script, no frame (clickjacking), no referrer (the URL of the sign-in callback
 * carries a code), forms posted only to the service itself; `formTarget` adds the client's origin, because browsers
 * apply form-action to the redirect that follows a form's submission.
 */
export function pageHeaders(formTarget?: string): Record<string, string> {
  const formAction = ["'self'", ...(formTarget ? [new URL(formTarget).origin] : [])].join(' ');
  return {
    'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src https:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)}</title><style>${STYLE}</style></head>
<body><main>
${body}
</main></body></html>`;

export const errorPage = (title: string, message: string): string => layout(title, `<h1>${escape(title)}</h1><p>${escape(message)}</p>`);

const hidden = (name: string, value: string) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`;

/** The local development sign-in (`npm start` only): no password, whoever you say you are. */
export const developmentSignInPage = (requestId: string, request: PendingRequest): string =>
  layout(
    'Local development sign-in',
    `<p class="warning">Local development sign-in. No password is checked: never use this outside your own machine. A deployed stack signs people in through its OpenID Connect provider.</p>
<h1>Sign in</h1>
<p>To continue to ${escape(request.client_name ?? request.client_id)}.</p>
<form method="post" action="/oauth/sign-in">
${hidden('request', requestId)}${hidden('csrf', request.csrf)}
<label for="subject">Your name or email</label><input type="text" id="subject" name="subject" value="developer@localhost" required maxlength="200">
<label for="workspaces">Workspaces you belong to (ids, separated by spaces)</label><input type="text" id="workspaces" name="workspaces" value="ws_local" required maxlength="1000">
<p><button type="submit">Sign in</button></p>
</form>`,
  );

const SCOPE_TEXT: Record<string, string> = {
  read: 'Read the workspace’s billing data: customers, catalog, subscriptions, invoices, usage.',
  write: 'Create and change billing data, including issuing invoices and recording payments.',
};

/** Only the first-party dashboard ever asks for admin (first-party.ts); the person decides, unticked by default. */
const ADMIN_CHOICE = `<fieldset><legend>Administration (optional)</legend>
<label><input type="checkbox" name="grant_admin" value="yes"> Also allow <strong>admin</strong>: create and revoke API keys, connect or disconnect the payment provider.</label></fieldset>`;

/** Who is asking, what for, and on which workspace: the person approves or declines. */
export function consentPage(requestId: string, request: PendingRequest): string {
  const workspaces = request.workspaces ?? [];
  const name = request.client_name ?? 'An application without a name';
  // A metadata document's name is the client's own claim: show where it comes from.
  const origin = request.client_kind === 'metadata-document' ? `<p class="muted">Described by ${escape(request.client_id)}</p>` : `<p class="muted">Client id ${escape(request.client_id)}</p>`;
  const logo = request.client_logo_uri ? `<img src="${escape(request.client_logo_uri)}" alt="">` : '';
  const choice =
    workspaces.length === 1
      ? `<p>Workspace: <strong>${escape(workspaces[0])}</strong></p>${hidden('workspace', workspaces[0]!)}`
      : `<fieldset><legend>Workspace</legend>${workspaces
          .map((ws, i) => `<label><input type="radio" name="workspace" value="${escape(ws)}"${i === 0 ? ' checked' : ''}> ${escape(ws)}</label>`)
          .join('')}</fieldset>`;
  return layout(
    `Allow ${name}?`,
    `<div class="client">${logo}<h1>${escape(name)} wants access to your billing workspace</h1></div>
${origin}
<p>Signed in as <strong>${escape(request.subject_label)}</strong>.</p>
<form method="post" action="/oauth/consent">
${hidden('request', requestId)}${hidden('csrf', request.csrf)}
${choice}
<p>It will be able to:</p>
<ul>${request.scope.split(' ').filter((s) => s !== 'admin').map((s) => `<li><strong>${escape(s)}</strong>: ${escape(SCOPE_TEXT[s] ?? s)}</li>`).join('')}</ul>
${request.scope.split(' ').includes('admin') ? ADMIN_CHOICE : ''}
<p class="muted">It will be sent back to ${escape(new URL(request.redirect_uri).origin)}.</p>
<p><button type="submit" name="decision" value="approve">Allow</button><button type="submit" name="decision" value="deny">Deny</button></p>
</form>`,
  );
}
