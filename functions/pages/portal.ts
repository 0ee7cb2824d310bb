import { portalPage } from '../../shared/domain/pages/portal';
import { previewPortalChange, type PortalChange } from '../../shared/domain/pages/portal-actions';
import { portalSetupIntent } from '../../shared/domain/pages/stripe-page';
import { findLiveSession, type PortalSessionItem } from '../../shared/domain/pages/portal-sessions';
import type { Ctx } from '../../shared/context';
import { formToken } from '../../shared/pages/csrf';
import { flashFor, type Notice } from '../../shared/pages/notices';
import { isRefusal, page, pageHandler, viewContext } from '../../shared/pages/page-handler';
import { portalView } from '../../shared/pages/views/portal';
import type { PreviewedChange } from '../../shared/pages/views/portal-subscriptions';
import { route } from '../../shared/schemas/generated/portalPage.js';

type Query = { notice?: string; change?: string; item?: string; price_configuration_id?: string; quantity?: string };

const PURPOSES = ['add_card', 'make_default', 'remove', 'billing_details', 'subscription_cancel', 'subscription_reactivate', 'subscription_change'] as const;

/** `?change=…`: the preview of that change (nothing written); a change refused says so on the page instead. */
async function previewed(ctx: Ctx, session: PortalSessionItem, query: Query): Promise<{ previewed?: PreviewedChange; refused?: Notice }> {
  if (!query.change) return {};
  const change: PortalChange = { subscription_id: query.change, item: query.item ?? '', price_configuration_id: query.price_configuration_id ?? '', quantity: query.quantity ?? '' };
  try {
    return { previewed: { change, preview: await previewPortalChange(ctx, session, change) } };
  } catch (error) {
    if (!isRefusal(error)) throw error;
    return { refused: error.code === 'portal_action_not_allowed' ? 'not_allowed' : 'action_refused' };
  }
}

export const handler = pageHandler<Record<string, never>, Query>(route, 'portal', async ({ ctx, claims, token, path }, { query }) => {
  const session = await findLiveSession(ctx, claims.id);
  const [data, stripe, preview] = await Promise.all([portalPage(ctx, session), portalSetupIntent(ctx, session.customer_id), previewed(ctx, session, query)]);
  const view = viewContext(data.audience.language, data.audience.timeZone);
  const tokens = Object.fromEntries(PURPOSES.map((purpose) => [purpose, formToken(token, purpose)])) as Record<(typeof PURPOSES)[number], string>;
  const flash = flashFor(view, preview.refused ?? query.notice);
  return page(200, portalView(view, data, { path, tokens, expiresAt: session.expires_at, flash, stripe, previewed: preview.previewed }), { stripe: !!stripe });
});
