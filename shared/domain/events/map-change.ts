import { priceConfigurationEvents, productEvents } from '../catalog/events';
import { couponEvents } from '../coupons/events';
import { creditBalanceEvents, creditTransactionEvents } from '../credits/events';
import { customerEvents } from '../customers/events';
import { exportEvents } from '../exports/events';
import { invoiceEvents } from '../invoices/events';
import { invoicingEntityEvents } from '../invoicing-entities/events';
import { paymentMethodEvents } from '../payment-methods/events';
import { walletEvents, walletTransactionEvents } from '../wallets/events';
import { aggregatorEvents } from '../metering/aggregator-events';
import { promotionCodeEvents } from '../promotion-codes/events';
import { quoteEvents } from '../quotes/events';
import { subscriptionEvents } from '../subscriptions/events';
import { usageEventEvents } from '../metering/events';
import { entitlementsEvents } from '../entitlements/events';
import { alertTriggerEvents } from '../alerts/events';
import type { EventDraft } from './catalog';

type Image = Record<string, unknown>;
type Mapper = (before: never, after: never) => EventDraft[];

/**
 * Which item types produce events, by their `_type`. Anything else (events, messages, deliveries, endpoints,
 * counters, settings, OAuth clients) produces none, so the stream never feeds on its own output.
 */
const MAPPERS: Record<string, Mapper> = {
  customer: customerEvents,
  invoicing_entity: invoicingEntityEvents,
  coupon: couponEvents, promotion_code: promotionCodeEvents,
  product: productEvents,
  price_configuration: priceConfigurationEvents,
  aggregator: aggregatorEvents,
  wallet: walletEvents,
  wallet_transaction: walletTransactionEvents,
  credit_balance: creditBalanceEvents, credit_transaction: creditTransactionEvents,
  payment_method: paymentMethodEvents,
  invoice: invoiceEvents,
  quote: quoteEvents,
  subscription: subscriptionEvents,
  customer_entitlements: entitlementsEvents,
  usage_event: usageEventEvents,
  alert_trigger: alertTriggerEvents,
  export: exportEvents,
};

/** The one pure function of DESIGN.md §6: an item change (old image, new image) → the events it means. */
export function mapChange(before: Image | undefined, after: Image | undefined): EventDraft[] {
  const type = (after ?? before)?._type;
  const mapper = typeof type === 'string' ? MAPPERS[type] : undefined;
  return mapper ? (mapper as (b: Image | undefined, a: Image | undefined) => EventDraft[])(before, after) : [];
}

/** Item types whose changes can produce events (the CDK stream filter is built from this). */
export const EVENT_SOURCE_TYPES = Object.keys(MAPPERS);


/**
 * When a change happened (ms), from the item itself: its `updated_at`, or for a new item written once (a wallet
 * or credit transaction) its `created_at`. Undefined when the item does not say (a removal): then only the stream's
 * approximate time is left, which is whole seconds at best.
 */
export function changeTime(before: Image | undefined, after: Image | undefined): number | undefined {
  if (!after) return undefined;
  const own = after.updated_at ?? (before ? undefined : after.created_at);
  const time = Date.parse(String(own ?? ''));
  return Number.isFinite(time) ? time : undefined;
}
