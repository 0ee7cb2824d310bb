import { portalAction, type PortalAction } from '../../shared/domain/pages/portal';
import { findLiveSession } from '../../shared/domain/pages/portal-sessions';
import type { RouteMeta } from '../../shared/http/route-meta';
import type { Notice } from '../../shared/pages/notices';
import { backTo, formNonce, isRefusal, pageHandler } from '../../shared/pages/page-handler';

type Form = Record<string, string | undefined>;

const DONE: Record<PortalAction['action'], Notice> = { add_card: 'card_added', make_default: 'default_changed', remove: 'card_removed' };

/** A portal form (add a card, choose the default, remove one): once per form, then back to the portal. */
export const portalActionHandler = (route: RouteMeta, action: PortalAction['action']) =>
  pageHandler<Form>(route, 'portal', async (opened, input) => {
    const nonce = formNonce(opened, input, action);
    if (!nonce) return backTo(opened.path, 'form_expired');
    const session = await findLiveSession(opened.ctx, opened.claims.id);
    const form = input.body;
    const request: PortalAction = action === 'add_card'
      ? { action, token: (form.token ?? '').trim() }
      : { action, payment_method_id: form.payment_method_id ?? '' };
    try {
      await portalAction(opened.ctx, session, request, nonce);
      return backTo(opened.path, DONE[action]);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      if (error.code === 'idempotency_key_in_progress') return backTo(opened.path);
      return backTo(opened.path, action === 'add_card' ? 'card_refused' : 'form_expired');
    }
  });
