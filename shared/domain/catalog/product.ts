import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { entityKey } from '../../db/keys';
import { toPriceConfiguration, type PriceConfigurationItem } from './price-configuration';

export const PRODUCT = 'ITM';

export type ProductType = 'flat_fee' | 'seat' | 'dynamic' | 'credit';

export interface ProductItem extends StoredItem {
  id: string;
  name: string;
  type: ProductType;
  status: 'active' | 'archived';
  description: string | null;
  description_display_interval_dates: boolean;
  public_description: string | null;
  translations: Record<string, unknown> | null;
  properties: Record<string, unknown> | null;
  custom_properties: Record<string, unknown>;
  accounting: Record<string, unknown>;
  /** The revenue account of its lines in the accounting exports (docs/accounting.md); absent on products written before it. */
  account_code?: string | null;
  is_available_on_demand: boolean;
  is_available_on_subscription: boolean;
  /** The aggregator that meters a `dynamic` or `credit` product; null otherwise (items written before metering lack it). */
  aggregator_id?: string | null;
  /** Its entry under that aggregator (shared/domain/metering/aggregator-products.ts). */
  gsi3pk?: string;
  gsi3sk?: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export type ProductInput = Partial<
  Pick<
    ProductItem,
    | 'name' | 'description' | 'description_display_interval_dates' | 'public_description' | 'translations' | 'properties'
    | 'custom_properties' | 'accounting' | 'account_code' | 'is_available_on_demand' | 'is_available_on_subscription' | 'aggregator_id'
  >
>;

export const productKey = (ctx: Ctx, id: string) => entityKey(ctx, PRODUCT, id);

export const productListFields = (p: ProductItem) => ({ name: p.name, type: p.type, status: p.status, created_at: p.created_at });

/** The public representation, with the product's price configurations embedded (their prices carry `type`). */
export function toProduct(item: ProductItem, configurations: PriceConfigurationItem[]) {
  return {
    id: item.id,
    name: item.name,
    status: item.status,
    type: item.type,
    description: item.description,
    description_display_interval_dates: item.description_display_interval_dates,
    public_description: item.public_description,
    translations: item.translations,
    properties: item.properties,
    custom_properties: item.custom_properties,
    accounting: item.accounting,
    account_code: item.account_code ?? null,
    is_available_on_demand: item.is_available_on_demand,
    is_available_on_subscription: item.is_available_on_subscription,
    aggregator_id: item.aggregator_id ?? null,
    price_configurations: configurations.map((c) => {
      const { product_id: _product, ...embedded } = toPriceConfiguration(c);
      return { ...embedded, prices: embedded.prices.map((price) => ({ ...price, type: c.type })) };
    }),
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}

export type Product = ReturnType<typeof toProduct>;
