/**
 * The MCP server's tools (docs/mcp.md): each is one route of the API, named by the task an agent has in mind, with
 * what it does and what it costs. A tool runs its route's own handler (shared/mcp/dispatch.ts), so validation,
 * scopes, workspace isolation, rate limits, idempotency and the domain are exactly the HTTP API's.
 */
export type ToolKind = 'read' | 'write' | 'destructive';

export interface ToolDefinition {
  name: string;
  /** The route it runs (functions/routes.ts). */
  route: string;
  kind: ToolKind;
  description: string;
}

const read = (name: string, route: string, description: string): ToolDefinition => ({ name, route, kind: 'read', description });
const write = (name: string, route: string, description: string): ToolDefinition => ({ name, route, kind: 'write', description });
/** Moves money or cannot be undone: the description says so, and clients ask the person before calling it. */
const destructive = (name: string, route: string, description: string): ToolDefinition => ({ name, route, kind: 'destructive', description });

export const tools: ToolDefinition[] = [
  read('list_invoicing_entities', 'listInvoicingEntities', 'List the invoicing entities (the legal sellers that issue invoices).'),
  write('create_invoicing_entity', 'createInvoicingEntity', 'Create an invoicing entity: the seller named on invoices (name, country, currency). Needed before customers.'),
  read('list_customers', 'listCustomers', 'List customers, oldest first; filter by name, email, status, external_id.'),
  read('get_customer', 'getCustomer', 'Get one customer by id.'),
  write('create_customer', 'createCustomer', 'Create a customer (name, currency, billing email, address, language, tax ids).'),
  write('update_customer', 'updateCustomer', 'Update a customer\'s details; members not given stay as they are.'),
  read('list_products', 'listProducts', 'List products of the catalog.'),
  write('create_product', 'createProduct', 'Create a product (fee, subscription, usage or credit pack), without a price.'),
  read('list_price_configurations', 'listPriceConfigurations', 'List the price configurations of a product (product_id).'),
  write('create_price_configuration', 'createPriceConfiguration', 'Create a price configuration of a product: currency, model, period and prices in minor units.'),
  read('list_aggregators', 'listAggregators', 'List usage aggregators (what counts as usage: count, sum, max, unique_count, latest of events).'),
  write('create_aggregator', 'createAggregator', 'Create a usage aggregator over billable events of an event type, with optional filters.'),
  write('record_usage', 'ingestEvent', 'Record one usage event of a customer (record.id is yours: sent again, it replaces the event). Billed at the period end.'),
  read('get_customer_usage', 'getCustomerUsage', 'Get a customer\'s usage of an aggregator over a time range (per day, with the period total).'),
  read('list_quotes', 'listQuotes', 'List quotes.'),
  read('get_quote', 'getQuote', 'Get one quote by id.'),
  write('create_quote', 'createQuote', 'Create a draft quote for a customer: products, prices, terms; signing it starts a subscription or issues an invoice.'),
  write('send_quote', 'sendQuote', 'Send an approved quote for signature (pending_signature, with its public link).'),
  destructive('sign_quote', 'signQuote', 'Mark a quote signed: creates its subscription (or issues its invoice), which then bills the customer. Cannot be undone.'),
  read('list_subscriptions', 'listSubscriptions', 'List subscriptions; filter by status or customer_id.'),
  read('get_subscription', 'getSubscription', 'Get one subscription, with its products and current period.'),
  destructive('create_subscription', 'createSubscription', 'Start a subscription (products, prices, quantities, start, trial): it bills the customer every period.'),
  destructive('change_subscription', 'updateSubscription', 'Change a subscription\'s products or quantities, now (prorated per proration_behavior) or at the next period, or how its next invoices are collected (collection_method).'),
  destructive('cancel_subscription', 'cancelSubscription', 'Cancel a subscription, at the period end (default) or immediately. Stops its billing.'),
  read('list_invoices', 'listInvoices', 'List invoices and credit notes; filter by customer_id, status, type.'),
  read('get_invoice', 'getInvoice', 'Get one invoice by id: lines, taxes, totals, amount due, payments.'),
  write('create_invoice', 'createInvoice', 'Create a draft invoice from line items (amounts in minor units); it bills nothing until validated.'),
  destructive('validate_invoice', 'validateInvoice', 'Validate a draft invoice: gives it its legal number and makes it payable. Cannot be undone.'),
  destructive('record_payment', 'createInvoiceTransaction', 'Record a payment received on an invoice (amount in minor units, method). Moves money: the invoice\'s amount due decreases.'),
  destructive('charge_invoice', 'chargeInvoice', 'Charge the invoice\'s amount due to the customer\'s saved payment method. Moves money.'),
  destructive('void_invoice', 'voidInvoice', 'Void an unpaid invoice: issues a credit note for its full amount. Cannot be undone.'),
  destructive('create_credit_note', 'createCreditNote', 'Issue a credit note against an invoice (all or some lines). Moves money back to the customer. Cannot be undone.'),
  read('list_wallets', 'listWallets', 'List prepaid wallets; filter by customer_id. Each shows its balance in minor units.'),
  write('create_wallet', 'createWallet', 'Create a prepaid wallet for a customer, in the customer\'s currency.'),
  destructive('load_wallet', 'loadWallet', 'Load money into a wallet (paid or offered). Moves money.'),
  read('get_customer_credits', 'listCustomerCredits', 'List a customer\'s credit balances, one per credit product.'),
  destructive('topup_credits', 'topupCustomerCredits', 'Add credits to a customer\'s balance of a credit product. Changes what the customer may consume.'),
  read('list_promotion_codes', 'listPromotionCodes', 'List promotion codes.'),
  write('create_promotion_code', 'createPromotionCode', 'Create a promotion code customers can redeem for a coupon.'),
  read('list_webhook_messages', 'listWebhookMessages', 'List webhook messages (the events the API emitted), newest first; filter by event type.'),
];

/** A tool that reads and a tool that does more: the scope its route needs is the route's own. */
export const toolNamed = (name: string): ToolDefinition | undefined => tools.find((tool) => tool.name === name);
