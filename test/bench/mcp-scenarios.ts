/**
 * The MCP server: the size of its tool list (what an agent loads into its context) and each measured tool's latency
 * beside its route's, through the local server. Import only once DYNAMODB_ENDPOINT is set.
 */
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { makeCtx } from '../../shared/context';
import { createApiKey } from '../../shared/domain/api-keys/manage';
import { apiClient } from './http';
import { measureRotating, type VariantResult } from './latency';

export interface ToolLatency {
  tool: string;
  route: string;
  viaTool: VariantResult;
  viaRoute: VariantResult;
}

export interface McpResults {
  toolCount: number;
  /** Characters of the tools/list result (names, descriptions, input and output schemas, annotations) as JSON. */
  listCharacters: number;
  largest: { name: string; characters: number };
  latencies: ToolLatency[];
}

export async function measureMcp(options: { baseUrl: string; workspaceId: string; counts: { warmup: number; measured: number } }): Promise<McpResults> {
  const { baseUrl, workspaceId, counts } = options;
  const { key } = await createApiKey(makeCtx(workspaceId, 'bench'), { name: 'MCP bench', scopes: ['read', 'write'] });
  const call = apiClient(baseUrl, key);
  const agent = new McpClient({ name: 'bench', version: '1.0.0' });
  await agent.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  try {
    const { tools } = await agent.listTools();
    const sizes = tools.map((tool) => ({ name: tool.name, characters: JSON.stringify(tool).length }));
    const largest = sizes.reduce((a, b) => (b.characters > a.characters ? b : a));

    await call('POST', '/v1/invoicing-entities', 201, { name: 'Bench SAS', country: 'FR', currency: 'EUR' });
    const customer = await call<{ id: string }>('POST', '/v1/customers', 201, { name: 'MCP bench', currency: 'EUR' });
    const tool = (name: string, args: Record<string, unknown>) => async () => {
      const result = await agent.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    };
    const pairs: { tool: string; route: string; viaTool: (i: number) => Promise<unknown>; viaRoute: (i: number) => Promise<unknown> }[] = [
      { tool: 'get_customer', route: 'GET /v1/customers/{id}', viaTool: tool('get_customer', { id: customer.id }), viaRoute: () => call('GET', `/v1/customers/${customer.id}`, 200) },
      { tool: 'list_customers', route: 'GET /v1/customers', viaTool: tool('list_customers', { take: 10 }), viaRoute: () => call('GET', '/v1/customers?take=10', 200) },
      {
        tool: 'update_customer', route: 'PUT /v1/customers/{id}',
        viaTool: (i) => tool('update_customer', { id: customer.id, name: `Tool ${i}` })(),
        viaRoute: (i) => call('PUT', `/v1/customers/${customer.id}`, 200, { name: `Route ${i}` }),
      },
    ];
    const measured = await measureRotating(
      pairs.flatMap((p) => [{ name: `${p.tool}:tool`, run: p.viaTool }, { name: `${p.tool}:route`, run: p.viaRoute }]),
      counts,
      () => 0,
    );
    return {
      toolCount: tools.length,
      listCharacters: JSON.stringify({ tools }).length,
      largest,
      latencies: pairs.map((p) => ({ tool: p.tool, route: p.route, viaTool: measured.get(`${p.tool}:tool`)!, viaRoute: measured.get(`${p.tool}:route`)! })),
    };
  } finally {
    await agent.close();
  }
}
