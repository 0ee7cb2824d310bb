import { aggregatorRoutes } from './aggregators/routes';
import { analyticsRoutes } from './analytics/routes';
import { alertRoutes } from './alerts/routes';
import { catalogRoutes } from './catalog/routes';
import { couponRoutes } from './coupons/routes';
import { creditRoutes } from './credits/routes';
import { customerRoutes } from './customers/routes';
import { emailRoutes } from './emails/routes';
import { exportRoutes } from './exports/routes';
import { identityRoutes } from './identity/routes';
import { invoiceRoutes } from './invoices/routes';
import { invoicingEntityRoutes } from './invoicing-entities/routes';
import { mcpRoutes } from './mcp/routes';
import { meteringRoutes } from './metering/routes';
import { oauthRoutes } from './oauth/routes';
import { pageRoutes } from './pages/routes';
import { paymentMethodRoutes } from './payment-methods/routes';
import { paymentProviderRoutes } from './payment-providers/routes';
import { promotionCodeRoutes } from './promotion-codes/routes';
import { quoteRoutes } from './quotes/routes';
import type { RouteDefinition } from './route-definition';
import { subscriptionRoutes } from './subscriptions/routes';
import { subscriptionPreviewRoutes } from './subscriptions/preview-routes';
import { planRoutes } from './plans/routes';
import { featureRoutes } from './features/routes';
import { billingTermsRoutes } from './subscriptions/billing-terms-routes';
import { testClockRoutes } from './test-clocks/routes';
import { walletRoutes } from './wallets/routes';
import { webhookRoutes } from './webhooks/routes';

export type { Method, RouteDefinition } from './route-definition';

/**
 * THE route table: every route once, gathered from each area's `routes.ts`. The CDK stack, the local server, the
 * validators (bin/generate-validators.ts), the OpenAPI document and the cross-cutting tests all derive from it.
 */
export const routes: RouteDefinition[] = [
  ...invoicingEntityRoutes,
  ...customerRoutes,
  ...paymentMethodRoutes,
  ...paymentProviderRoutes,
  ...catalogRoutes,
  ...aggregatorRoutes,
  ...couponRoutes, ...promotionCodeRoutes,
  ...quoteRoutes,
  ...subscriptionRoutes, ...subscriptionPreviewRoutes,
  ...planRoutes,
  ...featureRoutes,
  ...invoiceRoutes,
  ...emailRoutes,
  ...walletRoutes,
  ...exportRoutes,
  ...creditRoutes,
  ...meteringRoutes,
  ...analyticsRoutes,
  ...webhookRoutes,
  ...oauthRoutes,
  ...identityRoutes,
  ...testClockRoutes,
  ...billingTermsRoutes,
  ...alertRoutes,
  ...pageRoutes,
  ...mcpRoutes,
];
