import { clock, type Clock } from './clock';

/** What every domain function receives: who is asking (from the verified token only) and when. */
export interface Ctx {
  readonly workspaceId: string;
  readonly requestId: string;
  readonly clock: Clock;
}

export const makeCtx = (workspaceId: string, requestId: string, at: Clock = clock): Ctx => ({
  workspaceId,
  requestId,
  clock: at,
});
