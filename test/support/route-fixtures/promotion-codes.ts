import { randomUUID } from 'node:crypto';
import type { Client } from '../api';
import type { AreaFixtures } from './types';

/** The coupon every matrix promotion code redeems (one per workspace, made on first use). */
const coupons = new Map<string, Promise<string>>();
const couponOf = (client: Client): Promise<string> => {
  if (!coupons.has(client.workspace)) {
    coupons.set(client.workspace, client.post('/v1/coupons', { name: 'Matrix', type: 'percent', discount_percent: 5 }).then((r) => r.body.id));
  }
  return coupons.get(client.workspace)!;
};

const uniqueCode = () => `MATRIX-${randomUUID().slice(0, 8)}`;

export const promotionCodeFixtures: AreaFixtures = {
  resources: {
    '/v1/promotion-codes/{id}': async (client) =>
      (await client.post('/v1/promotion-codes', { code: uniqueCode(), coupon_id: await couponOf(client) })).body.id,
  },
  bodies: {
    // The matrix sends create bodies only where the request is refused first (401, 403, 415): no coupon needed.
    createPromotionCode: { code: 'MATRIX', coupon_id: 'cou_matrix' },
    updatePromotionCode: { max_redemptions: 5 },
  },
};
