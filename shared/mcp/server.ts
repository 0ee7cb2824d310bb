import type { Context } from 'aws-lambda';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { routes, type RouteDefinition } from '../../functions/routes';
import type { AuthorizedEvent } from '../http/request-context';
import { tools, type ToolDefinition } from './catalog';
import { callRoute, idempotencyKeyOf } from './dispatch';
import type { RouteInvoker } from './route-invoker';
import { toolInput, toolOutput, type ToolShape } from './tool-schema';

interface PreparedTool {
  definition: ToolDefinition;
  route: RouteDefinition;
  shape: ToolShape;
  listed: Tool;
}

const routeById = new Map(routes.map((route) => [route.id, route]));

/** The tool list, built once per instance from the catalog and the route table. */
export const preparedTools: PreparedTool[] = tools.map((definition) => {
  const route = routeById.get(definition.route);
  if (!route) throw new Error(`MCP tool ${definition.name}: no route ${definition.route}`);
  const { schema, shape } = toolInput(route, definition);
  const scope = definition.kind === 'read' ? 'read' : 'write';
  return {
    definition,
    route,
    shape,
    listed: {
      name: definition.name,
      description: `${definition.description} Scope: ${scope}.`,
      inputSchema: schema as Tool['inputSchema'],
      outputSchema: toolOutput(route) as Tool['outputSchema'],
      // The other hints mean something only for a tool that writes (MCP's ToolAnnotations): a read's are left out.
      annotations: definition.kind === 'read' ? { readOnlyHint: true } : {
        readOnlyHint: false,
        destructiveHint: definition.kind === 'destructive',
        // A repeated call (same arguments or same idempotency_key) has one effect.
        idempotentHint: true,
      },
    },
  };
});

const byName = new Map(preparedTools.map((tool) => [tool.definition.name, tool]));

/** An error the agent can act on: the API's own `code` and `message` (and field `errors`), as a tool result. */
const toolError = (body: unknown, fallback: string): CallToolResult => {
  const { code, message, errors } = (body ?? {}) as { code?: string; message?: string; errors?: unknown };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ code: code ?? 'error', message: message ?? fallback, ...(errors !== undefined && { errors }) }) }] };
};

/**
 * A stateless MCP server for one HTTP request (a new one each time, as the SDK's stateless mode wants): it lists the
 * tools and runs a call through the route's handler, with the request's verified credential.
 */
export function mcpServer(request: { event: AuthorizedEvent; context: Context; requestId: string; invoke: RouteInvoker }): Server {
  const server = new Server({ name: 'billing-api', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: preparedTools.map((tool) => tool.listed) }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }): Promise<CallToolResult> => {
    const tool = byName.get(params.name);
    if (!tool) return toolError({ code: 'unknown_tool', message: `No tool named '${params.name}'.` }, '');
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    const caller = String(request.event.requestContext.authorizer?.lambda?.sub ?? request.event.requestContext.authorizer?.jwt?.claims?.sub ?? '');
    const answer = await callRoute(tool.route, request.invoke, tool.shape, args, {
      event: request.event,
      context: request.context,
      requestId: request.requestId,
      ...(tool.definition.kind !== 'read' && { idempotencyKey: idempotencyKeyOf(tool.definition.name, args, caller) }),
    });
    if (answer.status >= 400) return toolError(answer.body, `The API answered ${answer.status}.`);
    const result = (answer.body ?? {}) as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  });
  return server;
}
