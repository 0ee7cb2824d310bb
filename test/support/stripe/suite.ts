import type { Client } from '../api';
import { movableClock } from '../clock';
import { startStripeTestApi, type StripeTestApi } from './api';
import type { StandInKeys } from './server';

export interface StripeSuite {
  env: StripeTestApi;
  /** A workspace connected to its own stand-in account (`keys`). */
  client: Client;
  keys: StandInKeys;
  clock: ReturnType<typeof movableClock>;
}

/**
 * For one `describe`: the test API with the Stripe stand-in, one connected workspace and a movable clock, started
 * before its tests and closed after them. Members are set once `beforeAll` ran.
 */
export function stripeSuite(options: { events?: boolean; webhookSecret?: string } = {}): StripeSuite {
  const suite = { clock: movableClock() } as StripeSuite;
  beforeAll(async () => {
    suite.env = await startStripeTestApi({ events: options.events });
    Object.assign(suite, await suite.env.connectedClient({ webhookSecret: options.webhookSecret }));
  });
  afterAll(async () => {
    await suite.env.close();
    suite.clock.restore();
  });
  return suite;
}
