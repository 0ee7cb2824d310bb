import { createWorkspace } from '../../shared/domain/workspaces/workspace';
import { newWorkspace, type Client, type TestApi } from './api';

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
