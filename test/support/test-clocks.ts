import { clock } from '../../shared/clock';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { createWorkspace } from '../../shared/domain/workspaces/workspace';
import { newWorkspace, type Client, type Reply, type TestApi } from './api';

/** A client of a fresh test-mode workspace (its record made as `npm run cli -- workspace create --test` makes it). */
export async function testModeClient(api: TestApi): Promise<Client> {
  const workspace = newWorkspace();
  await createWorkspace('Test mode', workspace, new Date(), 'test');
  return api.client({ workspace });
}

/** A test-mode client whose workspace is on a clock frozen at `frozenTime`; returns the clock's id too. */
export async function clockedClient(api: TestApi, frozenTime: string): Promise<{ client: Client; clockId: string }> {
  const client = await testModeClient(api);
  const made = await client.post('/v1/test-clocks', { frozen_time: frozenTime, name: 'Fixture' });
  if (made.status !== 201) throw new Error(`test clock creation failed: ${JSON.stringify(made.body)}`);
  return { client, clockId: made.body.id };
}

/**
 * Advances the clock and waits until it is `ready` (docs/test-clocks.md): the advance answers `advancing`, and the
 * due-work worker walks it, run here as `npm start` runs it (runDueWork, limited to the client's workspace).
 * Returns the advance's answer and the clock once ready.
 */
export async function advanceClock(client: Client, clockId: string, frozenTime: string): Promise<{ started: Reply; ready: Reply }> {
  const started = await client.post(`/v1/test-clocks/${clockId}/advance`, { frozen_time: frozenTime });
  if (started.status !== 200) return { started, ready: started };
  return { started, ready: await untilReady(client, clockId) };
}

/** Runs the workspace's due work until its clock is `ready` (a bounded number of runs, never a fixed sleep). */
export async function untilReady(client: Client, clockId: string): Promise<Reply> {
  for (let run = 0; run < 20; run++) {
    await runDueWork(clock.now(), { workspaces: new Set([client.workspace]) });
    const current = await client.get(`/v1/test-clocks/${clockId}`);
    if (current.body?.status === 'ready') return current;
  }
  throw new Error(`test clock ${clockId} still advancing after 20 runs of the due work`);
}
