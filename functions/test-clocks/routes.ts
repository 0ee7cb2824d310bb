import { exactListMeta, listOf, routesOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { testClockAdvanceBody, testClockCreationBody, testClockResource } from '../../shared/schemas/test-clocks';

const route = routesOf({ dir: 'test-clocks', tag: 'Test clocks', schema: testClockResource });

/** Test clocks (docs/test-clocks.md): a test-mode workspace's movable time. */
export const testClockRoutes: RouteDefinition[] = [
  route('createTestClock', 'POST', '/v1/test-clocks', 'create', 'Put the workspace on a test clock', {
    description: 'Test-mode workspaces only (a live workspace answers 422 `livemode_workspace`); one clock a workspace (409). From then on everything that reads the time in the workspace reads the clock, frozen at `frozen_time` until advanced.',
    request: { body: testClockCreationBody }, response: { status: 201, schema: testClockResource },
  }),
  route('listTestClocks', 'GET', '/v1/test-clocks', 'list', 'List test clocks', {
    description: 'The workspace\'s test clock, if it has one.', request: {}, response: { status: 200, schema: listOf(testClockResource, exactListMeta) }, indexes: [],
  }),
  route('getTestClock', 'GET', '/v1/test-clocks/{id}', 'get', 'Get a test clock', {}),
  route('advanceTestClock', 'POST', '/v1/test-clocks/{id}/advance', 'advance', 'Advance a test clock', {
    description: 'Starts moving the clock forward to `frozen_time` and answers at once with the clock `advancing` (its `frozen_time` unchanged). The due-work worker then runs the workspace\'s scheduled work (renewals, trials, dunning, expiries) as it comes due on the way, each at its own time, through the scheduled run\'s own code, and the clock is `ready` at `frozen_time` once it is done: poll `GET /v1/test-clocks/{id}`. One advance at a time (409 while the clock is advancing); a `frozen_time` not after the clock\'s is 400.',
    request: { path: idPath, body: testClockAdvanceBody },
    // It only writes: the walk through the scheduled work, and its queries, are the worker's.
    indexes: [],
  }),
  route('deleteTestClock', 'DELETE', '/v1/test-clocks/{id}', 'delete', 'Delete a test clock', {
    description: 'The workspace\'s time is the real time again. Work scheduled while on the clock is not run afterwards.',
  }),
];
