import type { PriceType } from './types';

export const PRODUCT_TYPES = ['flat_fee', 'seat', 'dynamic', 'credit'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/** Which price types a product of each type accepts (decisions.md, Catalog; Hyperline's product categories). */
export const PRICE_TYPES_BY_PRODUCT_TYPE: Readonly<Record<ProductType, readonly PriceType[]>> = Object.freeze({
  flat_fee: Object.freeze(['fee'] as const),
  seat: Object.freeze(['volume', 'packaged', 'bulk'] as const),
  dynamic: Object.freeze(['volume', 'packaged', 'bulk', 'bps'] as const),
  credit: Object.freeze(['bundle'] as const),
});

export const acceptsPriceType = (productType: ProductType, priceType: PriceType): boolean =>
  PRICE_TYPES_BY_PRODUCT_TYPE[productType].includes(priceType);
