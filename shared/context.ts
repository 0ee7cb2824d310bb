import { clock, type Clock } from './clock';

/** What every domain function receives: who is asking (from the verified token only) and when. */
export interface Ctx {
  readonly workspaceId: string;
  readonly requestId: string;
  readonly clock: Clock;
  /** The OAuth client the token was issued to, when it names one. */
  readonly clientId?: string | null;
  /** The test clock the workspace's time comes from (docs/test-clocks.md), if it has one: its due work is filed under it. */
  readonly testClock?: string;
}

export const makeCtx = (workspaceId: string, requestId: string, at: Clock = clock, clientId: string | null = null, testClock?: string): Ctx => ({
  workspaceId,
  requestId,
  clock: at,
  clientId,
  ...(testClock && { testClock }),
});
