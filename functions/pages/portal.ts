import { portalPage } from '../../shared/domain/pages/portal';
import { portalSetupIntent } from '../../shared/domain/pages/stripe-page';
import { findLiveSession } from '../../shared/domain/pages/portal-sessions';
import { formToken } from '../../shared/pages/csrf';
import { flashFor } from '../../shared/pages/notices';
import { page, pageHandler, viewContext } from '../../shared/pages/page-handler';
import { portalView } from '../../shared/pages/views/portal';
import { route } from '../../shared/schemas/generated/portalPage.js';

export const handler = pageHandler<Record<string, never>, { notice?: string }>(route, 'portal', async ({ ctx, claims, token, path }, { query }) => {
  const session = await findLiveSession(ctx, claims.id);
  const [data, stripe] = await Promise.all([portalPage(ctx, session), portalSetupIntent(ctx, session.customer_id)]);
  const view = viewContext(data.audience.language, data.audience.timeZone);
  const tokens = { add_card: formToken(token, 'add_card'), make_default: formToken(token, 'make_default'), remove: formToken(token, 'remove') };
  return page(200, portalView(view, data, { path, tokens, expiresAt: session.expires_at, flash: flashFor(view, query.notice), stripe }), { stripe: !!stripe });
});
