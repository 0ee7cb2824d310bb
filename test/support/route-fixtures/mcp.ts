import type { AreaFixtures } from './types';

export const mcpFixtures: AreaFixtures = {
  resources: {},
  bodies: { mcp: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
};
