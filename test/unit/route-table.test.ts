import { existsSync, readFileSync } from 'node:fs';
import { routes } from '../../functions/routes';

describe('the route table', () => {
  it('has unique ids and unique method + path pairs', () => {
    expect(new Set(routes.map((r) => r.id)).size).toBe(routes.length);
    expect(new Set(routes.map((r) => `${r.method} ${r.path}`)).size).toBe(routes.length);
  });

  it('needs read for GET and write for the rest (DESIGN.md §7); only client registration takes any scope, API keys and payment providers admin; OAuth, discovery and Stripe\'s webhooks are public', () => {
    const oauthProtocol = (path: string) => path.startsWith('/.well-known/') || (path.startsWith('/oauth/') && path !== '/oauth/register');
    for (const route of routes) {
      // Public: OAuth's protocol routes and discovery, and the hosted pages (their link is the credential).
      const expected =
        // The MCP endpoint takes any valid credential: each tool's own route then demands its scope.
        route.path === '/oauth/register' || route.path === '/mcp' ? 'any'
        // Stripe's webhooks: Stripe's signature is their credential.
        : oauthProtocol(route.path) || route.path.startsWith('/pages/') || route.path.startsWith('/v1/payment-providers/stripe/webhooks/') ? 'public'
        // Managing credentials, the service's or a payment provider's, takes the admin scope.
        : route.path.startsWith('/v1/api-keys') || route.path.startsWith('/v1/payment-providers') ? 'admin'
        : route.method === 'GET' ? 'read' : 'write';
      expect([route.id, route.scope]).toEqual([route.id, expected]);
    }
  });

  it('points every route at a handler module that exports handler and uses its own generated validators', () => {
    for (const route of routes) {
      expect([route.handler, existsSync(route.handler)]).toEqual([route.handler, true]);
      const source = readFileSync(route.handler, 'utf8');
      expect(source).toContain('export const handler');
      expect([route.handler, source.includes(`schemas/generated/${route.id}.js'`)]).toEqual([route.handler, true]);
    }
  });

  it('declares a path schema exactly when the path has parameters', () => {
    for (const route of routes) expect([route.id, route.path.includes('{')]).toEqual([route.id, route.request.path !== undefined]);
  });

  it('answers create with 201 and everything else with 200 (decisions.md); the OAuth browser routes that end in a redirect, 302', () => {
    const redirects = ['oauthAuthorize', 'oauthConsent'];
    for (const route of routes) {
      // A hosted page's form answers with a redirect back to its page (docs/hosted-pages.md), as does the page Stripe
      // sends the customer back to after 3-D Secure (it settles the payment, then shows the invoice page).
      const form = (route.method === 'POST' && route.path.startsWith('/pages/')) || route.id === 'invoicePageReturn';
      if (route.scope === 'public') {
        expect([route.id, route.response.status]).toEqual([route.id, redirects.includes(route.id) ? 302 : form ? 303 : 200]);
        continue;
      }
      // Also creates, under their parent: a credit top-up or usage (decisions.md: top up 201), a payment method or a
      // Stripe setup intent, an invoice's transaction or credit note, a plan's version.
      const child = /\/credits\/\{productId\}\/(topup|usage)$|\/(payment-methods|setup-intents|transactions|credit-notes|portal-sessions|versions)$/;
      // A plan migration is accepted and worked asynchronously, page by page (docs/plans.md): 202.
      if (route.id === 'createPlanMigration') {
        expect(route.response.status).toBe(202);
        continue;
      }
      // POST /mcp is a JSON-RPC call, not a creation.
      // Nor is a sync with a provider (it settles what exists), nor a preview (it writes nothing).
      const creates = route.method === 'POST' && route.path !== '/mcp' && !/\/(sync|preview)$/.test(route.path) && (!/\/\{id\}\//.test(route.path) || child.test(route.path));
      // An export is accepted, not made, when asked for: 202, made in the background (docs/accounting.md).
      const accepted = route.id === 'createExport';
      expect([route.id, route.response.status]).toEqual([route.id, accepted ? 202 : creates ? 201 : 200]);
    }
  });
});
