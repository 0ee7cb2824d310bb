import { clock as processClock, type Clock } from '../../clock';
import { makeCtx, type Ctx } from '../../context';
import { readWorkspaceRecord } from './test-clock';

/**
 * Live workspaces this instance has read: a workspace's mode is fixed at its creation, so a live one is never read
 * again and its requests pay nothing (its first request on an instance pays one GetItem). A test workspace's clock is read on every use (one strongly consistent GetItem):
 * another instance may have advanced it. Bounded, as a Lambda instance may serve many workspaces.
 */
const knownLive = new Set<string>();
const MOST_REMEMBERED = 10_000;

/** The clock a workspace's time comes from: its test clock's frozen time, if it has one, else the process clock. */
export async function workspaceClock(workspaceId: string, fallback: Clock = processClock): Promise<{ clock: Clock; testClock?: string }> {
  if (knownLive.has(workspaceId)) return { clock: fallback };
  const record = await readWorkspaceRecord(workspaceId);
  // No record: a workspace only a credential names (never made test, which only `workspace create --test` does).
  if (record?.mode !== 'test') {
    if (knownLive.size >= MOST_REMEMBERED) knownLive.clear();
    knownLive.add(workspaceId);
  }
  const frozen = record?.mode === 'test' ? record.test_clock : undefined;
  if (!frozen) return { clock: fallback };
  const at = Date.parse(frozen.frozen_time);
  return { clock: { now: () => new Date(at) }, testClock: frozen.id };
}

/** `ctx` on its workspace's clock (docs/test-clocks.md): what request handlers, the scheduled work and the streams use. */
export async function onWorkspaceClock(ctx: Ctx): Promise<Ctx> {
  const { clock, testClock } = await workspaceClock(ctx.workspaceId, ctx.clock);
  return testClock ? makeCtx(ctx.workspaceId, ctx.requestId, clock, ctx.clientId ?? null, testClock) : ctx;
}

/** A fresh context of `workspaceId` on its clock (the workers', the streams'). */
export const workspaceCtx = (workspaceId: string, requestId: string): Promise<Ctx> => onWorkspaceClock(makeCtx(workspaceId, requestId));
