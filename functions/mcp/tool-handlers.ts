/** The route handlers the MCP tools run (shared/mcp/catalog.ts), imported statically so they are bundled with it. */
import { handler as cancelSubscription } from '../subscriptions/cancel';
import { handler as chargeInvoice } from '../invoices/charge';
import { handler as createAggregator } from '../aggregators/create';
import { handler as createCreditNote } from '../invoices/credit-notes';
import { handler as createCustomer } from '../customers/create';
import { handler as createInvoice } from '../invoices/create';
import { handler as createInvoiceTransaction } from '../invoices/transactions';
import { handler as createInvoicingEntity } from '../invoicing-entities/create';
import { handler as createPriceConfiguration } from '../catalog/create-price-configuration';
import { handler as createProduct } from '../catalog/create-product';
import { handler as createPromotionCode } from '../promotion-codes/create';
import { handler as createQuote } from '../quotes/create';
import { handler as createWallet } from '../wallets/create';
import { handler as getCustomer } from '../customers/get';
import { handler as getCustomerUsage } from '../metering/get-usage';
import { handler as getInvoice } from '../invoices/get';
import { handler as getQuote } from '../quotes/get';
import { handler as getSubscription } from '../subscriptions/get';
import { handler as ingestEvent } from '../metering/ingest-event';
import { handler as listAggregators } from '../aggregators/list';
import { handler as listCustomerCredits } from '../credits/list-balances';
import { handler as listCustomers } from '../customers/list';
import { handler as listInvoices } from '../invoices/list';
import { handler as listInvoicingEntities } from '../invoicing-entities/list';
import { handler as listPriceConfigurations } from '../catalog/list-price-configurations';
import { handler as listProducts } from '../catalog/list-products';
import { handler as listPromotionCodes } from '../promotion-codes/list';
import { handler as listQuotes } from '../quotes/list';
import { handler as listSubscriptions } from '../subscriptions/list';
import { handler as listWallets } from '../wallets/list';
import { handler as listWebhookMessages } from '../webhooks/list-messages';
import { handler as loadWallet } from '../wallets/load';
import { handler as sendQuote } from '../quotes/send';
import { handler as signQuote } from '../quotes/sign';
import { handler as topupCustomerCredits } from '../credits/topup';
import { handler as updateCustomer } from '../customers/update';
import { handler as validateInvoice } from '../invoices/validate';
import { handler as voidInvoice } from '../invoices/void';
import type { RouteHandler } from '../../shared/mcp/dispatch';

export const toolHandlers: Record<string, RouteHandler> = {
  listInvoicingEntities, createInvoicingEntity, listCustomers, getCustomer, createCustomer, updateCustomer, listProducts, createProduct,
  listPriceConfigurations, createPriceConfiguration, listAggregators, createAggregator, ingestEvent, getCustomerUsage, listQuotes, getQuote,
  createQuote, sendQuote, signQuote, listSubscriptions, getSubscription, cancelSubscription, listInvoices, getInvoice, createInvoice,
  validateInvoice, createInvoiceTransaction, chargeInvoice, voidInvoice, createCreditNote, listWallets, createWallet, loadWallet,
  listCustomerCredits, topupCustomerCredits, listPromotionCodes, createPromotionCode, listWebhookMessages,
} as Record<string, RouteHandler>;
