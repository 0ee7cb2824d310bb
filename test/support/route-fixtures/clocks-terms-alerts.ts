import { Conflict } from '../../../shared/errors';
import { createWorkspace } from '../../../shared/domain/workspaces/workspace';
import type { Client } from '../api';
import type { AreaFixtures } from './types';

/** The client's workspace's clock: the workspace made a test-mode one first (test clocks exist only there), once. */
async function clockOf(client: Client): Promise<string> {
  await createWorkspace('Fixture', client.workspace, new Date(), 'test').catch((error: unknown) => {
    if (!(error instanceof Conflict)) throw error;
  });
  const existing = (await client.get('/v1/test-clocks')).body.data?.[0]?.id as string | undefined;
  return existing ?? (await client.post('/v1/test-clocks', { frozen_time: '2031-01-01T00:00:00Z' })).body.id;
}

export const testClockFixtures: AreaFixtures = {
  resources: {
    '/v1/test-clocks/{id}': clockOf,
    '/v1/alerts/{id}': async (client) => (await client.post('/v1/alerts', { name: 'Spend', type: 'spend', thresholds: [1_000] })).body.id,
  },
  bodies: {
    createTestClock: { frozen_time: '2031-01-01T00:00:00Z', name: 'Fixture' },
    advanceTestClock: { frozen_time: '2099-01-01T00:00:00Z' },
    // A subscription's billing terms (its resource is the subscriptions' fixture).
    createAlert: { name: 'Spend', type: 'spend', thresholds: [1_000, 5_000] },
    setSubscriptionBillingTerms: { billing_thresholds: { amount_gte: 10_000 }, minimum_invoice_fee: 1_000 },
  },
};
