import { publicHandler, WebResponse } from '../../shared/http/public-handler';
import { STRIPE_PAGE_SCRIPT } from '../../shared/pages/stripe-script';
import { route } from '../../shared/schemas/generated/pagesStripeScript.js';

/** The pages' script for Stripe's Payment Element: a file, so the pages' CSP allows no inline script. */
export const handler = publicHandler(route, async () =>
  new WebResponse(200, STRIPE_PAGE_SCRIPT, {
    'content-type': 'text/javascript; charset=utf-8',
    'cache-control': 'public, max-age=300',
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
  }),
);
