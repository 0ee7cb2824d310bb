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
    description: 'Moves the clock forward to `frozen_time`, running the workspace\'s scheduled work (renewals, trials, dunning, expiries) as it comes due on the way, each at its own time, through the scheduled run\'s own code. One advance at a time (409 while another runs); a `frozen_time` not after the clock\'s is 400.',
    request: { path: idPath, body: testClockAdvanceBody },
    // Its own index, and those the scheduled work it runs queries (the worker's).
    indexes: ['gsi1', 'gsi2', 'gsi3', 'gsi4'],
  }),
  route('deleteTestClock', 'DELETE', '/v1/test-clocks/{id}', 'delete', 'Delete a test clock', {
    description: 'The workspace\'s time is the real time again. Work scheduled while on the clock is not run afterwards.',
  }),
];
