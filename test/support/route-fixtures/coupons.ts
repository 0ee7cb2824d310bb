import type { AreaFixtures } from './types';

const percentCoupon = { name: 'Ten percent', type: 'percent', discount_percent: 10 };

export const couponFixtures: AreaFixtures = {
  resources: {
    '/v1/coupons/{id}': async (client) => (await client.post('/v1/coupons', percentCoupon)).body.id,
  },
  bodies: {
    createCoupon: percentCoupon,
    updateCoupon: { name: 'Changed by another workspace' },
  },
};
