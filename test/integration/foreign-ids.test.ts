/**
 * Every id a request names is checked in the caller's workspace (DESIGN.md §7, docs/decisions.md): another
 * workspace's id answers like a missing one and changes nothing. The members are found in the route table
 * (test/support/id-members.ts); each is either swept here — workspace B makes the thing it names, workspace A sends
 * a valid request naming B's id instead of its own and gets a 4xx, the very answer (status, code, message) an id no
 * workspace has gets, with nothing of A created or changed; then the same request naming A's own id succeeds (so the
 * refusal is the id's doing) — or listed with why it names nothing of a workspace. A member found in neither fails
 * the test, so none is skipped silently.
 */
import { randomUUID } from 'node:crypto';
import { routes } from '../../functions/routes';
import { startTestApi, withEntity, type Client, type Reply, type TestApi } from '../support/api';
import { idMembers } from '../support/id-members';
import { pricedProduct, subscribe } from '../support/subscriptions';

/** One of each thing a request can name, made in one workspace. */
interface World {
  entity: string;
  customer: string;
  /** A card saved for `customer`. */
  paymentMethod: string;
  priceBook: string;
  aggregator: string;
  product: string;
  priceConfiguration: string;
  /** The fee price of `priceConfiguration`. */
  price: string;
  creditProduct: string;
  /** The bundle price of `creditProduct`. */
  creditPrice: string;
  coupon: string;
  /** A subscription of `customer` to `product`. */
  subscription: string;
  /** A plan (subscriptions take it; price configurations' and promotion codes' `plan_id` still take null only: 'plan'). */
  salesPlan: string;
  /** Its two versions. */
  planVersion: string;
  planVersion2: string;
  feature: string;
}

/** Plans, quote templates and bank accounts do not exist: A's own is null, B's any id (refused as unknown). */
type Nothing = 'plan' | 'template' | 'bankAccount';
type Kind = keyof World | Nothing;
const NOTHING: readonly Kind[] = ['plan', 'template', 'bankAccount'];

interface Request {
  method: 'POST' | 'PUT' | 'PATCH' | 'GET';
  path: string;
  body?: Record<string, unknown>;
  /** What the request would change, read before and after (besides every list's total). */
  read?: string;
  /** The caller's own id for a member, where it is not the world's (the payment method of the customer updated). */
  own?: Record<string, string>;
}

interface Sweep {
  /** A valid request of the route in the caller's workspace, made anew for each send (it may make what it needs). */
  request: (w: World, client: Client) => Request | Promise<Request>;
  /** Each id member of the route and what it names. */
  members: Record<string, Kind>;
  /** A request of its own for a member that another member excludes (a plan instead of products). */
  memberRequests?: Record<string, (w: World, client: Client) => Request | Promise<Request>>;
  /** Members for which no id of the caller's own is valid either, and why (the refusal is then all there is to check). */
  noOwn?: Record<string, string>;
}

const lineOf = (w: World) => ({ product_id: w.product, price_configuration_id: w.priceConfiguration, quantity: 1 });
const code = () => `SWEEP-${randomUUID().slice(0, 8)}`;
const draftQuote = async (w: World, client: Client) =>
  (await client.post('/v1/quotes', { customer_id: w.customer, type: 'subscription_update', subscription_id: w.subscription, line_items: [lineOf(w)] })).body.id as string;
const invoiceOf = async (w: World, client: Client, status = 'draft') =>
  (await client.post('/v1/invoices', { customer_id: w.customer, status, line_items: [{ name: 'Setup', unit_amount: 1_000 }] })).body.id as string;

/** The routes whose requests name ids of the workspace: a valid request of each, and what its members name. */
const SWEEPS: Record<string, Sweep> = {
  createCustomer: {
    request: (w) => ({ method: 'POST', path: '/v1/customers', body: { name: 'Swept', currency: 'EUR', invoicing_entity_id: w.entity, organisation_id: w.customer, price_book_id: w.priceBook } }),
    members: { 'body.invoicing_entity_id': 'entity', 'body.organisation_id': 'customer', 'body.price_book_id': 'priceBook', 'body.payment_method_id': 'paymentMethod' },
    noOwn: { 'body.payment_method_id': 'a new customer has no saved payment method yet' },
  },
  updateCustomer: {
    request: async (w, client) => {
      const id = (await client.post('/v1/customers', { name: 'Updated', currency: 'EUR' })).body.id as string;
      const card = (await client.post(`/v1/customers/${id}/payment-methods`, { token: 'tok_visa' })).body.id as string;
      return {
        method: 'PUT', path: `/v1/customers/${id}`, body: { invoicing_entity_id: w.entity, organisation_id: w.customer, price_book_id: w.priceBook, payment_method_id: card },
        read: `/v1/customers/${id}`, own: { 'body.payment_method_id': card },
      };
    },
    members: { 'body.invoicing_entity_id': 'entity', 'body.organisation_id': 'customer', 'body.price_book_id': 'priceBook', 'body.payment_method_id': 'paymentMethod' },
  },
  createProduct: {
    request: (w) => ({
      method: 'POST', path: '/v1/products',
      body: { name: 'Swept', type: 'dynamic', aggregator_id: w.aggregator, price_configurations: [{ currency: 'EUR', type: 'volume', price_book_id: w.priceBook, plan_id: null, prices: [{ from: 1, to: null, amount: 10 }] }] },
    }),
    members: { 'body.aggregator_id': 'aggregator', 'body.price_configurations[].price_book_id': 'priceBook', 'body.price_configurations[].plan_id': 'plan' },
  },
  updateProduct: {
    request: async (w, client) => {
      const id = (await client.post('/v1/products', { name: 'Metered', type: 'dynamic' })).body.id;
      return { method: 'PUT', path: `/v1/products/${id}`, body: { aggregator_id: w.aggregator }, read: `/v1/products/${id}` };
    },
    members: { 'body.aggregator_id': 'aggregator' },
  },
  createPriceConfiguration: {
    request: (w) => ({ method: 'POST', path: '/v1/price-configurations', body: { product_id: w.product, price_book_id: w.priceBook, plan_id: null, currency: 'EUR', type: 'fee', prices: [{ amount: 100 }] } }),
    members: { 'body.product_id': 'product', 'body.price_book_id': 'priceBook', 'body.plan_id': 'plan' },
  },
  createCoupon: {
    request: (w) => ({ method: 'POST', path: '/v1/coupons', body: { name: 'Swept', type: 'percent', discount_percent: 5, product_ids: [w.product] } }),
    members: { 'body.product_ids[]': 'product' },
  },
  createPromotionCode: {
    request: (w) => ({ method: 'POST', path: '/v1/promotion-codes', body: { code: code(), coupon_id: w.coupon, customer_id: w.customer, product_id: w.product, plan_id: null } }),
    members: { 'body.coupon_id': 'coupon', 'body.customer_id': 'customer', 'body.product_id': 'product', 'body.plan_id': 'plan' },
  },
  updatePromotionCode: {
    request: async (w, client) => {
      const id = (await client.post('/v1/promotion-codes', { code: code(), coupon_id: w.coupon })).body.id;
      return { method: 'PATCH', path: `/v1/promotion-codes/${id}`, body: { customer_id: w.customer, product_id: w.product, plan_id: null }, read: `/v1/promotion-codes/${id}` };
    },
    members: { 'body.customer_id': 'customer', 'body.product_id': 'product', 'body.plan_id': 'plan' },
  },
  createQuote: {
    request: (w) => ({ method: 'POST', path: '/v1/quotes', body: { customer_id: w.customer, type: 'subscription_update', subscription_id: w.subscription, invoicing_entity_id: w.entity, template_id: null, line_items: [lineOf(w)] } }),
    members: {
      'body.customer_id': 'customer', 'body.line_items[].price_configuration_id': 'priceConfiguration', 'body.line_items[].product_id': 'product',
      'body.invoicing_entity_id': 'entity', 'body.subscription_id': 'subscription', 'body.template_id': 'template',
      // Hyperline's subscription (docs/hyperline.md): its products by their id, its entity.
      'body.subscription.products[].id': 'product', 'body.subscription.products[].price_configuration_id': 'priceConfiguration',
      'body.subscription.invoicing_entity_id': 'entity',
    },
    memberRequests: Object.fromEntries(['body.subscription.products[].id', 'body.subscription.products[].price_configuration_id', 'body.subscription.invoicing_entity_id'].map((member) => [
      member, (w: World) => ({ method: 'POST', path: '/v1/quotes', body: { customer_id: w.customer, subscription: { invoicing_entity_id: w.entity, products: [{ id: w.product, price_configuration_id: w.priceConfiguration }] } } }),
    ])),
  },
  updateQuote: {
    request: async (w, client) => {
      const id = await draftQuote(w, client);
      return { method: 'PATCH', path: `/v1/quotes/${id}`, body: { line_items: [lineOf(w)], invoicing_entity_id: w.entity, subscription_id: w.subscription, template_id: null }, read: `/v1/quotes/${id}` };
    },
    members: {
      'body.line_items[].price_configuration_id': 'priceConfiguration', 'body.line_items[].product_id': 'product', 'body.invoicing_entity_id': 'entity',
      'body.subscription_id': 'subscription', 'body.template_id': 'template',
    },
  },
  createSubscription: {
    request: (w) => ({ method: 'POST', path: '/v2/subscriptions', body: { customer_id: w.customer, invoicing_entity_id: w.entity, products: [lineOf(w)], coupon_ids: [w.coupon] } }),
    members: {
      'body.customer_id': 'customer', 'body.invoicing_entity_id': 'entity', 'body.products[].product_id': 'product',
      'body.products[].price_configuration_id': 'priceConfiguration', 'body.coupon_ids[]': 'coupon', 'body.plan_id': 'salesPlan', 'body.plan_version_id': 'planVersion',
      // Hyperline's shapes (docs/hyperline.md): a product by its id, coupons by theirs, one phase.
      'body.products[].id': 'product', 'body.coupons[].id': 'coupon', 'body.phases[].products[].product_id': 'product',
      'body.phases[].products[].price_configuration_id': 'priceConfiguration', 'body.phases[].products[].id': 'product', 'body.phases[].coupons[].id': 'coupon',
    },
    memberRequests: {
      'body.plan_id': (w) => ({ method: 'POST', path: '/v2/subscriptions', body: { customer_id: w.customer, plan_id: w.salesPlan } }),
      'body.plan_version_id': (w) => ({ method: 'POST', path: '/v2/subscriptions', body: { customer_id: w.customer, plan_version_id: w.planVersion } }),
      'body.products[].id': (w) => ({ method: 'POST', path: '/v2/subscriptions', body: { customer_id: w.customer, products: [{ id: w.product, price_configuration_id: w.priceConfiguration }] } }),
      'body.coupons[].id': (w) => ({ method: 'POST', path: '/v2/subscriptions', body: { customer_id: w.customer, products: [lineOf(w)], coupons: [{ id: w.coupon }] } }),
      ...Object.fromEntries(['body.phases[].products[].product_id', 'body.phases[].products[].price_configuration_id', 'body.phases[].coupons[].id'].map((member) => [
        member, (w: World) => ({ method: 'POST', path: '/v2/subscriptions', body: { customer_id: w.customer, phases: [{ products: [lineOf(w)], coupons: [{ id: w.coupon }] }] } }),
      ])),
      'body.phases[].products[].id': (w) => ({ method: 'POST', path: '/v2/subscriptions', body: { customer_id: w.customer, phases: [{ products: [{ id: w.product, price_configuration_id: w.priceConfiguration }] }] } }),
    },
  },
  createPlan: {
    request: (w) => ({ method: 'POST', path: '/v1/plans', body: { products: [lineOf(w)], features: [{ feature_id: w.feature, value: true }], name: 'Swept', currency: 'EUR' } }),
    members: { 'body.products[].product_id': 'product', 'body.products[].price_configuration_id': 'priceConfiguration', 'body.features[].feature_id': 'feature' },
  },
  createPlanVersion: {
    request: (w) => ({ method: 'POST', path: `/v1/plans/${w.salesPlan}/versions`, body: { products: [lineOf(w)], features: [{ feature_id: w.feature, value: true }] }, read: `/v1/plans/${w.salesPlan}` }),
    members: { 'body.products[].product_id': 'product', 'body.products[].price_configuration_id': 'priceConfiguration', 'body.features[].feature_id': 'feature' },
  },
  previewPlanMigration: {
    request: (w) => ({ method: 'POST', path: `/v1/plans/${w.salesPlan}/migrations/preview`, body: { to_version_id: w.planVersion2, from_version_id: w.planVersion, subscription_ids: [w.subscription] } }),
    members: { 'body.to_version_id': 'planVersion2', 'body.from_version_id': 'planVersion', 'body.subscription_ids[]': 'subscription' },
  },
  createPlanMigration: {
    request: (w) => ({ method: 'POST', path: `/v1/plans/${w.salesPlan}/migrations`, body: { to_version_id: w.planVersion2, from_version_id: w.planVersion, subscription_ids: [w.subscription] } }),
    members: { 'body.to_version_id': 'planVersion2', 'body.from_version_id': 'planVersion', 'body.subscription_ids[]': 'subscription' },
  },
  createAlert: {
    request: (w) => ({ method: 'POST', path: '/v1/alerts', body: { name: 'Swept', type: 'usage', aggregator_id: w.aggregator, customer_id: w.customer, thresholds: [10] } }),
    members: { 'body.aggregator_id': 'aggregator', 'body.customer_id': 'customer' },
  },
  createFeature: {
    request: (w) => ({ method: 'POST', path: '/v1/features', body: { code: code().toLowerCase(), name: 'Calls', type: 'metered', aggregator_id: w.aggregator } }),
    members: { 'body.aggregator_id': 'aggregator' },
  },
  createInvoicingEntity: {
    request: () => ({ method: 'POST', path: '/v1/invoicing-entities', body: { name: 'Swept', country: 'FR', currency: 'EUR', portal_settings: { allowed_price_configuration_ids: [] } } }),
    members: { 'body.portal_settings.allowed_price_configuration_ids[]': 'priceConfiguration' },
  },
  updateInvoicingEntity: {
    request: (w) => ({ method: 'PUT', path: `/v1/invoicing-entities/${w.entity}`, body: { portal_settings: { allowed_price_configuration_ids: [] } }, read: `/v1/invoicing-entities/${w.entity}` }),
    members: { 'body.portal_settings.allowed_price_configuration_ids[]': 'priceConfiguration' },
  },
  updateSubscription: {
    request: async (w, client) => {
      // Starting tomorrow: nothing is billed meanwhile, so only the request could change it.
      const { id } = await subscribe(client, { customer_id: w.customer, starts_at: new Date(Date.now() + 86_400_000).toISOString(), products: [lineOf(w)] });
      return { method: 'PATCH', path: `/v2/subscriptions/${id}`, body: { products: [{ ...lineOf(w), quantity: 2 }], proration_behavior: 'none' }, read: `/v2/subscriptions/${id}` };
    },
    members: { 'body.products[].product_id': 'product', 'body.products[].price_configuration_id': 'priceConfiguration' },
  },
  createInvoice: {
    request: (w) => ({
      method: 'POST', path: '/v1/invoices',
      body: { customer_id: w.customer, invoicing_entity_id: w.entity, coupon_ids: [w.coupon], payment_method_id: w.paymentMethod, bank_account_id: null, line_items: [{ ...lineOf(w), price_id: w.price }] },
    }),
    members: {
      'body.customer_id': 'customer', 'body.invoicing_entity_id': 'entity', 'body.coupon_ids[]': 'coupon', 'body.payment_method_id': 'paymentMethod', 'body.bank_account_id': 'bankAccount',
      'body.line_items[].price_configuration_id': 'priceConfiguration', 'body.line_items[].price_id': 'price', 'body.line_items[].product_id': 'product',
    },
  },
  updateInvoice: {
    request: async (w, client) => {
      const id = await invoiceOf(w, client);
      return { method: 'PATCH', path: `/v1/invoices/${id}`, body: { payment_method_id: w.paymentMethod, bank_account_id: null, line_items: [{ ...lineOf(w), price_id: w.price }] }, read: `/v1/invoices/${id}` };
    },
    members: {
      'body.payment_method_id': 'paymentMethod', 'body.bank_account_id': 'bankAccount',
      'body.line_items[].price_configuration_id': 'priceConfiguration', 'body.line_items[].price_id': 'price', 'body.line_items[].product_id': 'product',
    },
  },
  chargeInvoice: {
    request: async (w, client) => {
      const id = await invoiceOf(w, client, 'to_pay');
      return { method: 'POST', path: `/v1/invoices/${id}/charge`, body: { payment_method_id: w.paymentMethod }, read: `/v1/invoices/${id}` };
    },
    members: { 'body.payment_method_id': 'paymentMethod' },
  },
  createWallet: {
    request: async (_, client) => {
      // One wallet per customer: each send names a customer that has none yet.
      const customer = (await client.post('/v1/customers', { name: 'Wallet owner', currency: 'EUR' })).body.id;
      return { method: 'POST', path: '/v1/wallets', body: { customer_id: customer }, own: { 'body.customer_id': customer } };
    },
    members: { 'body.customer_id': 'customer' },
  },
  createExport: {
    request: (w) => ({ method: 'POST', path: '/v1/exports', body: { kind: 'journal', format: 'csv', period: { from: '2026-11-01', to: '2026-11-30' }, invoicing_entity_id: w.entity } }),
    members: { 'body.invoicing_entity_id': 'entity' },
  },
  topupCustomerCredits: {
    request: (w) => ({ method: 'POST', path: `/v1/customers/${w.customer}/credits/${w.creditProduct}/topup`, body: { credit_count: 10, price_id: w.creditPrice } }),
    members: { 'body.price_id': 'creditPrice' },
  },
  // A batch's events are checked one by one by this same route's validator and ingestion (its body schema is an
  // array of anything), so their customer_id is this one's.
  ingestEvent: {
    request: (w) => ({ method: 'POST', path: '/v1/events', body: { customer_id: w.customer, event_type: 'api_call', timestamp: new Date().toISOString(), record: { id: code() } } }),
    members: { 'body.customer_id': 'customer' },
  },
  listCreditBalances: {
    // The customer is required (balances are indexed per customer): another workspace's is an unknown one (404).
    request: (w) => ({ method: 'GET', path: `/v1/customers/credits?customer_id=${w.customer}&product_id=${w.creditProduct}` }),
    members: { 'query.customer_id': 'customer', 'query.product_id': 'creditProduct' },
  },
  listEvents: {
    // The customer is required (events are indexed per customer): another workspace's is an unknown one (404).
    request: () => ({ method: 'GET', path: '/v1/events' }),
    members: { 'query.customer_id': 'customer' },
  },
  getCustomerUsage: {
    request: (w) => {
      const to = new Date(); // the period [to − 1 day, to)
      return { method: 'GET', path: `/v1/customers/${w.customer}/usage?aggregator_id=${w.aggregator}&from=${new Date(to.getTime() - 86_400_000).toISOString()}&to=${to.toISOString()}` };
    },
    members: { 'query.aggregator_id': 'aggregator' },
  },
  getAnalytics: {
    request: (w) => ({ method: 'GET', path: `/v1/analytics?currency=EUR&invoicing_entity_id=${w.entity}` }),
    members: { 'query.invoicing_entity_id': 'entity' },
  },
  getAnalyticsMetric: {
    request: (w) => ({ method: 'GET', path: `/v1/analytics/mrr?currency=EUR&invoicing_entity_id=${w.entity}` }),
    members: { 'query.invoicing_entity_id': 'entity' },
  },
};

/** A preview (POST <path>/preview) takes the body of the route it previews and names what that body names. */
const previewing = (sweep: Sweep): Sweep => {
  const asPreview = (make: Sweep['request']): Sweep['request'] => async (w, client) => {
    const request = await make(w, client);
    return { ...request, method: 'POST', path: `${request.path}/preview` };
  };
  const memberRequests = sweep.memberRequests && Object.fromEntries(Object.entries(sweep.memberRequests).map(([member, make]) => [member, asPreview(make)]));
  return { ...sweep, request: asPreview(sweep.request), ...(memberRequests && { memberRequests }) };
};
SWEEPS.previewSubscription = previewing(SWEEPS.createSubscription!);
SWEEPS.previewSubscriptionChange = previewing(SWEEPS.updateSubscription!);

/** List filters: naming another workspace's id finds nothing of it (200, an empty page), as an unknown id does. */
const FILTERS: Record<string, Kind> = {
  'listPriceConfigurations query.product_id': 'product',
  'listPriceConfigurations query.price_book_id': 'priceBook',
  'listPromotionCodes query.coupon_id': 'coupon',
  'listPromotionCodes query.customer_id': 'customer',
  'listQuotes query.customer_id': 'customer',
  'listSubscriptions query.customer_id': 'customer',
  'listInvoices query.customer_id': 'customer',
  'listInvoices query.subscription_id': 'subscription',
  'listInvoices query.original_invoice_id': 'customer',
  'listInvoicesV2 query.customer_id': 'customer',
  'listInvoicesV2 query.subscription_id': 'subscription',
  'listInvoicesV2 query.original_invoice_id': 'customer',
  'listWallets query.customer_id': 'customer',
  'listWalletsV2 query.customer_id': 'customer',
  'listEmails query.customer_id': 'customer',
  // Invoices are not among the world's things: another workspace's id is swept with a customer's, as above.
  'listEmails query.invoice_id': 'customer',
};

/** Members named like ids that name nothing of a workspace, and why. */
const NOT_WORKSPACE_IDS: Record<string, string> = {
  'createSubscription body.coupons[].product_ids': "refused whatever it names (422 coupon_terms_not_supported): a coupon applies as created",
  'createSubscription body.phases[].coupons[].product_ids': "refused whatever it names (422 coupon_terms_not_supported): a coupon applies as created",
  'previewSubscription body.coupons[].product_ids': "refused whatever it names (422 coupon_terms_not_supported): a coupon applies as created",
  'previewSubscription body.phases[].coupons[].product_ids': "refused whatever it names (422 coupon_terms_not_supported): a coupon applies as created",
  'createProduct body.price_configurations[].prices[].id': "Hyperline's price id, dropped: every stored price gets a new id, nothing is looked up",
  'createPriceConfiguration body.prices[].id': "Hyperline's price id, dropped: every stored price gets a new id, nothing is looked up",
  'updatePrices body.prices[].id': "Hyperline's price id, dropped: every stored price gets a new id, nothing is looked up",
  'updatePrices body[].id': "Hyperline's price id, dropped: every stored price gets a new id, nothing is looked up",
  'postPrices body.prices[].id': "Hyperline's price id, dropped: every stored price gets a new id, nothing is looked up",
  'postPrices body[].id': "Hyperline's price id, dropped: every stored price gets a new id, nothing is looked up",
  'createInvoicingEntity body.tax_id': 'a tax registration number',
  'updateInvoicingEntity body.tax_id': 'a tax registration number',
  'createCustomer body.tax_ids[]': 'tax registration numbers',
  'updateCustomer body.tax_ids[]': 'tax registration numbers',
  'createCustomer body.external_id': "the caller's own id of the customer",
  'updateCustomer body.external_id': "the caller's own id of the customer",
  'listCustomers query.external_id': "a filter on the caller's own ids",
  'createQuote body.crm_opportunity_id': "an id in the caller's CRM",
  'updateQuote body.crm_opportunity_id': "an id in the caller's CRM",
  'createQuote body.collect_custom_property_ids[]': 'names of custom properties the signer is asked for',
  'updateQuote body.collect_custom_property_ids[]': 'names of custom properties the signer is asked for',
  'createQuote body.collect_tax_id': 'a flag',
  'updateQuote body.collect_tax_id': 'a flag',
  'createQuote body.attachments[].id': "a file's description: the service stores no file, the id is the caller's (or minted)",
  'updateQuote body.attachments[].id': "a file's description: the service stores no file, the id is the caller's (or minted)",
  'signQuote body.signed_file.id': "a file's description: the service stores no file",
  'createCreditNote body.line_items[].line_item_id': 'a line of the invoice in the path, looked up among its lines (422 line_item_not_found)',
  'setSubscriptionBillingTerms body.min_committed_counts[].product_id': 'a metered product of the subscription in the path, looked up among its products (422 product_not_metered)',
  'createCustomerCreditsUsage body.event_id': "the caller's idempotency id of the usage",
  'ingestEvent body.record.id': "the caller's own id of the event (idempotency)",
  'registerOAuthClient body.software_id': "the client software's own id (RFC 7591)",
  'oauthAuthorize query.client_id': 'a public route: the client is found by its id service-wide, and its workspace comes from it',
  'oauthToken body.client_id': 'a public route: the client is found by its id service-wide, and its workspace comes from it',
  'oauthRevoke body.client_id': 'a public route: the client is found by its id service-wide, and its workspace comes from it',
  'quotePageSign body.tax_id': "the signer's tax registration number",
  'portalMakeDefault body.payment_method_id': "a public page: in the link's workspace, through updateCustomer's check (swept above)",
  'portalRemoveCard body.payment_method_id': "a public page: in the link's workspace, through deletePaymentMethod's path check (route matrix)",
  'portalSubscription body.subscription_id': "a public page: in the link's workspace, and a subscription of the session's customer only (portal-actions.test.ts)",
  'portalSubscription body.price_configuration_id': "a public page: in the link's workspace, and only one of the entity's portal_settings (swept on the entity)",
  'portalBillingDetails body.tax_id': "the customer's tax registration number",
  'portalPage query.price_configuration_id': "a public page: in the link's workspace, and only one of the entity's portal_settings (swept on the entity)",
  'mcp body.id': 'the JSON-RPC request id',
};

const swept = Object.entries(SWEEPS).flatMap(([routeId, sweep]) => Object.keys(sweep.members).map((member) => `${routeId} ${member}`));

let api: TestApi;
let a: Client;
let b: Client;
let own: World;
let foreign: World;

async function worldOf(client: Client): Promise<World> {
  const entity = (await withEntity(client)).id as string;
  const customer = (await client.post('/v1/customers', { name: 'Buyer', currency: 'EUR', billing_address: { country: 'FR' } })).body.id as string;
  const [paymentMethod, priceBook, aggregator, fee, credit, coupon] = await Promise.all([
    client.post(`/v1/customers/${customer}/payment-methods`, { token: 'tok_visa' }).then((r) => r.body.id as string),
    client.post('/v1/price-books', { name: 'Partners' }).then((r) => r.body.id as string),
    client.post('/v1/aggregators', { name: 'Calls', event_type: 'api_call', operation: 'count' }).then((r) => r.body.id as string),
    pricedProduct(client, 'flat_fee'),
    pricedProduct(client, 'credit'),
    client.post('/v1/coupons', { name: 'Five', type: 'percent', discount_percent: 5 }).then((r) => r.body.id as string),
  ]);
  const priceOf = async (configuration: string) => (await client.get(`/v1/price-configurations/${configuration}`)).body.prices[0].id as string;
  const subscription = (await subscribe(client, { customer_id: customer, starts_at: new Date().toISOString(), products: [{ ...fee, quantity: 1 }] })).id;
  const feature = (await client.post('/v1/features', { code: 'sso', name: 'SSO', type: 'boolean' })).body.id as string;
  const plan = (await client.post('/v1/plans', { name: 'Team', currency: 'EUR', products: [{ ...fee, quantity: 1 }] })).body;
  const planVersion2 = (await client.post(`/v1/plans/${plan.id}/versions`, { products: [{ ...fee, quantity: 2 }] })).body.latest_version.id as string;
  return {
    entity, customer, paymentMethod, priceBook, aggregator, coupon, subscription, feature, salesPlan: plan.id, planVersion: plan.latest_version.id, planVersion2,
    product: fee.product_id, priceConfiguration: fee.price_configuration_id, price: await priceOf(fee.price_configuration_id),
    creditProduct: credit.product_id, creditPrice: await priceOf(credit.price_configuration_id),
  };
}

const idOf = (world: World, kind: Kind, isOwn: boolean): string | null =>
  NOTHING.includes(kind) ? (isOwn ? null : `${kind}_of_no_workspace`) : world[kind as Exclude<Kind, Nothing>];

/** `body.line_items[].product_id` → every line's product_id set to `value`; `body.coupon_ids[]` → the list `[value]`. */
function withMember(body: Record<string, unknown>, member: string, value: string | null): Record<string, unknown> {
  const steps = member.replace(/^body\./, '').split('.');
  const set = (node: any, rest: string[]): any => {
    const [step, ...after] = rest as [string, ...string[]];
    const name = step.replace(/\[\]$/, '');
    const isList = step.endsWith('[]');
    if (after.length === 0) return { ...node, [name]: isList ? [value] : value };
    const child = node[name];
    return { ...node, [name]: isList ? (child as any[]).map((item) => set(item, after)) : set(child ?? {}, after) };
  };
  return set(body, steps);
}

function withQuery(path: string, member: string, value: string): string {
  const url = new URL(path, 'http://x');
  url.searchParams.set(member.replace(/^query\./, ''), value);
  return `${url.pathname}${url.search}`;
}

const send = (client: Client, request: Request): Promise<Reply> =>
  request.method === 'GET' ? client.get(request.path) : (client as any)[request.method.toLowerCase()](request.path, request.body);

/** What A has: the total of every list of the route table without a path parameter, and the request's own target. */
async function snapshot(request: Request): Promise<Record<string, unknown>> {
  const lists = routes.filter((r) => r.method === 'GET' && r.response.list && !r.path.includes('{') && r.scope !== 'public');
  const totals = await Promise.all(lists.map(async (r) => [r.path, (await a.get(`${r.path}?take=0`)).body.meta?.total] as const));
  const target = request.read ? (await a.get(request.read)).body : undefined;
  return { ...Object.fromEntries(totals), target };
}

beforeAll(async () => {
  api = await startTestApi();
  [a, b] = [await api.client(), await api.client()];
  [own, foreign] = await Promise.all([worldOf(a), worldOf(b)]);
}, 120_000);
afterAll(() => api.close());

describe('the id members of the route table', () => {
  it('are each swept, a list filter, or said to name nothing of a workspace', () => {
    const known = new Set([...swept, ...Object.keys(FILTERS), ...Object.keys(NOT_WORKSPACE_IDS)]);
    expect(idMembers().filter((member) => !known.has(member))).toEqual([]);
    // And nothing listed here is stale: every entry is a member of the route table.
    const found = new Set(idMembers());
    expect([...known].filter((member) => !found.has(member))).toEqual([]);
  });
});

describe.each(swept.map((member) => [member, member.split(' ') as [string, string]] as const))('%s', (_, [routeId, member]) => {
  const sweep = SWEEPS[routeId]!;
  const kind = sweep.members[member]!;

  it("answers another workspace's id as an unknown one (4xx, nothing of the caller's changed) and takes the caller's own", async () => {
    const request = await (sweep.memberRequests?.[member] ?? sweep.request)(own, a);
    const naming = (value: string | null): Request => {
      if (member.startsWith('query.')) return { ...request, path: withQuery(request.path, member, value!) };
      return { ...request, body: withMember(request.body ?? {}, member, value) };
    };
    const theirs = idOf(foreign, kind, false)!;
    // An id no workspace has, of the same kind: the answer B's id must be indistinguishable from.
    const unknown = `${theirs.split('_')[0]}_${randomUUID().replaceAll('-', '').slice(0, 26).toUpperCase()}`;
    const before = await snapshot(request);
    const [refused, missing] = [await send(a, naming(theirs)), await send(a, naming(unknown))];
    expect([refused.status >= 400 && refused.status < 500, refused.status, refused.body]).toEqual([true, refused.status, refused.body]);
    const answer = (reply: Reply, id: string) => [reply.status, reply.body.code, reply.body.message?.replaceAll(id, '<id>')];
    expect(answer(refused, theirs)).toEqual(answer(missing, unknown));
    expect(await snapshot(request)).toEqual(before);

    if (sweep.noOwn?.[member]) return;
    const accepted = await send(a, naming(request.own?.[member] ?? idOf(own, kind, true)));
    expect([accepted.status < 300, accepted.status, accepted.body?.message]).toEqual([true, accepted.status, accepted.body?.message]);
  });
});

describe.each(Object.entries(FILTERS))('%s', (entry, kind) => {
  it("finds nothing of another workspace's id", async () => {
    const [routeId, member] = entry.split(' ') as [string, string];
    const route = routes.find((r) => r.id === routeId)!;
    const reply = await a.get(withQuery(route.path, member, idOf(foreign, kind, false)!));
    expect([reply.status, reply.body.data, reply.body.meta.total]).toEqual([200, [], 0]);
  });
});
