import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { entityKey } from '../../db/keys';
import type { PriceType } from '../pricing/types';

export const PRICE_CONFIGURATION = 'PRC';

export type BillingInterval = { period: 'once' } | { period: 'days' | 'weeks' | 'months' | 'years'; count: number };
export type CommitmentInterval = { period: 'all' } | { period: 'days' | 'weeks' | 'months' | 'years'; count: number };

/** A stored price: the shape of its type (fee, tier, bps tier, pack) plus its own id. */
export type StoredPrice = { id: string } & Record<string, unknown>;

export interface PriceConfigurationItem extends StoredItem {
  id: string;
  product_id: string;
  price_book_id: string | null;
  status: 'active' | 'archived';
  currency: string;
  country: string | null;
  plan_id: string | null;
  billing_interval: BillingInterval;
  commitment_interval: CommitmentInterval;
  type: PriceType;
  prices: StoredPrice[];
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

export const priceConfigurationKey = (ctx: Ctx, id: string) => entityKey(ctx, PRICE_CONFIGURATION, id);

export const priceConfigurationListFields = (c: PriceConfigurationItem) => ({ product_id: c.product_id, price_book_id: c.price_book_id });

export const toPriceConfiguration = (c: PriceConfigurationItem) => ({
  id: c.id,
  product_id: c.product_id,
  price_book_id: c.price_book_id,
  status: c.status,
  currency: c.currency,
  country: c.country,
  plan_id: c.plan_id,
  billing_interval: c.billing_interval,
  commitment_interval: c.commitment_interval,
  type: c.type,
  prices: c.prices,
  created_at: c.created_at,
  updated_at: c.updated_at,
  archived_at: c.archived_at,
});

export type PriceConfiguration = ReturnType<typeof toPriceConfiguration>;
