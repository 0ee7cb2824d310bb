import { aggregatorResource } from './aggregators';
import { couponResource } from './coupons';
import { creditBalanceResource, creditTransactionListItem, creditTransactionResource } from './credits';
import { customerResource } from './customers';
import { errorResource, oauthErrorResource } from './errors';
import { exportResource } from './exports';
import { invoiceResource } from './invoices';
import { entityResource } from './invoicing-entities';
import { clientRegistrationResource } from './oauth-clients';
import { paymentMethodResource } from './payment-methods';
import { embeddedPriceConfigurationResource, priceBookResource, priceConfigurationResource, productResource, simulationResource } from './catalog';
import { promotionCodeResource } from './promotion-codes';
import { quoteResource } from './quotes';
import { subscriptionResource } from './subscriptions';
import { walletResource, walletTransactionResource } from './wallets';
import { attemptResource, endpointResource, messageListResource, messageResource } from './webhooks';
import type { Schema } from './common';

/**
 * The named resources of the OpenAPI document (`#/components/schemas/<name>`): lib/openapi.ts replaces every
 * occurrence of one of these schema objects (compared by identity) by a `$ref`, so a resource is described once.
 * Route schemas keep the objects themselves: validators and the tests' response checks need no `$ref` resolution.
 */
export const schemaComponents: Record<string, Schema> = {
  Error: errorResource,
  OAuthError: oauthErrorResource,
  InvoicingEntity: entityResource,
  Customer: customerResource,
  PaymentMethod: paymentMethodResource,
  Product: productResource,
  PriceConfiguration: priceConfigurationResource,
  ProductPriceConfiguration: embeddedPriceConfigurationResource,
  PriceBook: priceBookResource,
  PriceSimulation: simulationResource,
  Aggregator: aggregatorResource,
  Coupon: couponResource,
  PromotionCode: promotionCodeResource,
  Quote: quoteResource,
  Subscription: subscriptionResource,
  Invoice: invoiceResource,
  Wallet: walletResource,
  Export: exportResource,
  WalletTransaction: walletTransactionResource,
  CreditBalance: creditBalanceResource,
  CreditTransaction: creditTransactionResource,
  CreditTransactionListItem: creditTransactionListItem,
  WebhookEndpoint: endpointResource,
  WebhookMessage: messageResource,
  WebhookMessageList: messageListResource,
  WebhookAttempt: attemptResource,
  OAuthClientRegistration: clientRegistrationResource,
};
