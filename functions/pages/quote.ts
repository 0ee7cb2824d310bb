import { quotePage } from '../../shared/domain/pages/quote-page';
import { formToken } from '../../shared/pages/csrf';
import { flashFor } from '../../shared/pages/notices';
import { page, pageHandler, viewContext } from '../../shared/pages/page-handler';
import { quoteView } from '../../shared/pages/views/quote';
import { route } from '../../shared/schemas/generated/quotePage.js';

export const handler = pageHandler<Record<string, never>, { notice?: string }>(route, 'quote', async ({ ctx, claims, token, path }, { query }) => {
  const data = await quotePage(ctx, claims.id, claims.generation);
  const view = viewContext(data.audience.language, data.audience.timeZone);
  return page(200, quoteView(view, data, { path, signToken: formToken(token, 'sign'), flash: flashFor(view, query.notice) }));
});
