import { invoicePage } from '../../shared/domain/pages/invoice-page';
import { formToken } from '../../shared/pages/csrf';
import { flashFor } from '../../shared/pages/notices';
import { page, pageHandler, viewContext } from '../../shared/pages/page-handler';
import { invoiceView } from '../../shared/pages/views/invoice';
import { route } from '../../shared/schemas/generated/invoicePage.js';

export const handler = pageHandler<Record<string, never>, { notice?: string }>(route, 'invoice', async ({ ctx, claims, token, path }, { query }) => {
  const data = await invoicePage(ctx, claims.id, claims.generation);
  const view = viewContext(data.audience.language, data.audience.timeZone);
  return page(200, invoiceView(view, data, { path, payToken: formToken(token, 'pay'), flash: flashFor(view, query.notice) }), { stripe: !!data.stripe });
});
