import type { RouteDefinition } from '../route-definition';
import { jsonRpcMessage, jsonRpcResponse } from '../../shared/schemas/mcp';

/** The MCP server (docs/mcp.md): one route, the Streamable HTTP endpoint. */
export const mcpRoutes: RouteDefinition[] = [
  {
    id: 'mcp', method: 'POST', path: '/mcp', handler: 'functions/mcp/handler.ts', scope: 'any', tag: 'MCP',
    summary: 'The MCP server (Streamable HTTP, stateless, JSON responses)',
    description: 'A JSON-RPC 2.0 message of the Model Context Protocol: `initialize`, `tools/list`, `tools/call`… Each tool runs one route of this API with the caller\'s credential, so its scope, rate limit and idempotency apply. Send `Accept: application/json, text/event-stream`.',
    request: { body: jsonRpcMessage }, response: { status: 200, schema: jsonRpcResponse },
    // The tools' routes' indexes: the function runs their handlers (lib/table-access.ts adds them up).
    indexes: ['gsi1', 'gsi2', 'gsi3'],
  },
];
