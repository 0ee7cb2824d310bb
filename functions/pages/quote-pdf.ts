import { findLinkedQuote } from '../../shared/domain/pages/quote-page';
import { downloadQuote } from '../../shared/domain/quotes/download';
import { pageHandler } from '../../shared/pages/page-handler';
import { route } from '../../shared/schemas/generated/quotePagePdf.js';

/** The PDF of the link's quote, as `GET /v1/quotes/{id}/download` makes it. */
export const handler = pageHandler(route, 'quote', async ({ ctx, claims }) => {
  await findLinkedQuote(ctx, claims.id, claims.generation);
  return downloadQuote(ctx, claims.id);
});
