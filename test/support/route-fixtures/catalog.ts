import type { Client } from '../api';
import type { AreaFixtures } from './types';

const product = async (client: Client) => (await client.post('/v1/products', { name: 'Seats', type: 'seat' })).body.id as string;

export const seatTiers = [
  { from: 1, to: 10, amount: 1000, unit_count: 1, on_tier_incomplete: 'pro_rata' },
  { from: 11, to: null, amount: 800, unit_count: 1, on_tier_incomplete: 'pro_rata' },
];

export const catalogFixtures: AreaFixtures = {
  resources: {
    '/v1/products/{id}': product,
    '/v1/price-configurations/{id}': async (client) =>
      (await client.post('/v1/price-configurations', { product_id: await product(client), currency: 'EUR', type: 'volume', prices: seatTiers })).body.id,
  },
  bodies: {
    createProduct: { name: 'P', type: 'flat_fee' },
    updateProduct: { name: 'Changed by another workspace' },
    createPriceConfiguration: { product_id: 'itm_unknown', currency: 'EUR', type: 'fee', prices: [{ amount: 100 }] },
    updatePrices: { prices: seatTiers },
    postPrices: { prices: seatTiers },
    simulatePrice: { quantity: 3 },
    createPriceBook: { name: 'Partners' },
  },
};
