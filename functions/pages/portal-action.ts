import type { DomainError } from '../../shared/errors';
import { portalAction, type PortalAction } from '../../shared/domain/pages/portal';
import type { Submission } from '../../shared/domain/pages/page-effect';
import { findLiveSession, type PortalSessionItem } from '../../shared/domain/pages/portal-sessions';
import type { Ctx } from '../../shared/context';
import type { RouteMeta } from '../../shared/http/route-meta';
import type { Notice } from '../../shared/pages/notices';
import { backTo, formNonce, isRefusal, pageHandler } from '../../shared/pages/page-handler';

export type Form = Record<string, string | undefined>;

interface PortalForm {
  /** The CSRF purpose of the form (its token is good for that form only). */
  purpose: (form: Form) => string;
  run: (ctx: Ctx, session: PortalSessionItem, form: Form, nonce: string) => Promise<Submission<unknown>>;
  done: (form: Form) => Notice;
  /** What the page says of a refusal (4xx): nothing was changed. */
  refused: (error: DomainError, form: Form) => Notice;
}

/** A portal form: once per submission, then back to the portal saying what happened (a refusal changes nothing). */
export const portalFormHandler = (route: RouteMeta, form: PortalForm) =>
  pageHandler<Form>(route, 'portal', async (opened, input) => {
    const body = input.body ?? {};
    const nonce = formNonce(opened, input, form.purpose(body));
    if (!nonce) return backTo(opened.path, 'form_expired');
    const session = await findLiveSession(opened.ctx, opened.claims.id);
    try {
      await form.run(opened.ctx, session, body, nonce);
      return backTo(opened.path, form.done(body));
    } catch (error) {
      if (!isRefusal(error)) throw error;
      if (error.code === 'idempotency_key_in_progress') return backTo(opened.path);
      return backTo(opened.path, form.refused(error, body));
    }
  });

const DONE: Record<PortalAction['action'], Notice> = { add_card: 'card_added', make_default: 'default_changed', remove: 'card_removed' };

/** A card form (add a card, choose the default, remove one). */
export const portalActionHandler = (route: RouteMeta, action: PortalAction['action']) =>
  portalFormHandler(route, {
    purpose: () => action,
    run: (ctx, session, form, nonce) => {
      const request: PortalAction = action === 'add_card'
        ? { action, token: (form.token ?? '').trim() }
        : { action, payment_method_id: form.payment_method_id ?? '' };
      return portalAction(ctx, session, request, nonce);
    },
    done: () => DONE[action],
    refused: () => (action === 'add_card' ? 'card_refused' : 'form_expired'),
  });
