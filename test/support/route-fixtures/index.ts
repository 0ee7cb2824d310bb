import { aggregatorFixtures } from './aggregators';
import { analyticsFixtures } from './analytics';
import { catalogFixtures } from './catalog';
import { couponFixtures } from './coupons';
import { creditFixtures } from './credits';
import { customerFixtures } from './customers';
import { exportFixtures } from './exports';
import { identityFixtures } from './identity';
import { invoiceFixtures } from './invoices';
import { invoicingEntityFixtures } from './invoicing-entities';
import { mcpFixtures } from './mcp';
import { meteringFixtures } from './metering';
import { oauthFixtures } from './oauth';
import { pageFixtures } from './pages';
import { planFixtures } from './plans';
import { paymentMethodFixtures } from './payment-methods';
import { paymentProviderFixtures } from './payment-providers';
import { promotionCodeFixtures } from './promotion-codes';
import { quoteFixtures } from './quotes';
import type { AreaFixtures } from './types';
import { subscriptionFixtures } from './subscriptions';
import { testClockFixtures } from './clocks-terms-alerts';
import { walletFixtures } from './wallets';
import { webhookFixtures } from './webhooks';

const areas: AreaFixtures[] = [
  invoicingEntityFixtures,
  customerFixtures,
  paymentMethodFixtures,
  paymentProviderFixtures,
  catalogFixtures,
  aggregatorFixtures,
  couponFixtures, promotionCodeFixtures,
  quoteFixtures,
  subscriptionFixtures,
  planFixtures,
  invoiceFixtures,
  walletFixtures,
  exportFixtures,
  creditFixtures,
  meteringFixtures,
  analyticsFixtures,
  webhookFixtures,
  oauthFixtures,
  identityFixtures,
  testClockFixtures,
  pageFixtures,
  mcpFixtures,
];

export const resourceFixtures: AreaFixtures['resources'] = Object.assign({}, ...areas.map((a) => a.resources));
export const validBodies: AreaFixtures['bodies'] = Object.assign({}, ...areas.map((a) => a.bodies));
export const validQueries: Record<string, string> = Object.assign({}, ...areas.map((a) => a.queries ?? {}));
