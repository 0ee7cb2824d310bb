import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { tools } from '../../shared/mcp/catalog';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
let owner: Client;
let ownerKey: string;
let agent: McpClient;

/** An MCP client of the official SDK over Streamable HTTP, holding a bearer credential of the API. */
async function connect(credential: string): Promise<McpClient> {
  const client = new McpClient({ name: 'test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${credential}` } } });
  await client.connect(transport);
  return client;
}

const keyOf = async (client: Client, scopes: string[]) => (await client.post('/v1/api-keys', { name: 'agent', scopes })).body.key as string;

/** A tool's structured result, or a failure naming the tool error. */
async function call(client: McpClient, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${(result.content[0] as { text: string }).text}`);
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, any>;
}

async function toolError(client: McpClient, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text) as { code: string; message: string };
}

beforeAll(async () => {
  api = await startTestApi();
  owner = await api.client();
  await withEntity(owner);
  ownerKey = await keyOf(owner, ['read', 'write']);
  agent = await connect(ownerKey);
});
afterAll(async () => {
  await agent?.close();
  await api.close();
});

describe('the MCP endpoint', () => {
  it('refuses a request without a credential: 401 naming the MCP resource metadata', async () => {
    const reply = await api.raw('POST', '/mcp', {
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${api.url}/.well-known/oauth-protected-resource/mcp", scope="read write"`);
  });

  it('lists every tool of the catalog, each with a schema, annotations and a description that names its scope', async () => {
    const { tools: listed } = await agent.listTools();
    expect(listed.map((t) => t.name).sort()).toEqual(tools.map((t) => t.name).sort());
    expect(listed.length).toBeLessThanOrEqual(40);
    for (const tool of listed) {
      const definition = tools.find((t) => t.name === tool.name)!;
      expect(tool.inputSchema.type).toBe('object');
      // A read's other hints mean nothing (MCP's ToolAnnotations): left out.
      expect(tool.annotations).toEqual(definition.kind === 'read' ? { readOnlyHint: true } : { readOnlyHint: false, destructiveHint: definition.kind === 'destructive', idempotentHint: true });
      expect(tool.description).toMatch(definition.kind === 'read' ? / Scope: read\.$/ : / Scope: write\.$/);
      if (definition.kind !== 'read') expect(Object.keys(tool.inputSchema.properties ?? {})).toContain('idempotency_key');
      // Whatever the schema leaves out, an agent can still give every member it requires.
      for (const name of tool.inputSchema.required ?? []) expect(Object.keys(tool.inputSchema.properties ?? {})).toContain(name);
    }
    // Hyperline's names and shapes, which the route also takes, are not offered to an agent (docs/mcp.md).
    const subscription = listed.find((t) => t.name === 'create_subscription')!.inputSchema.properties as Record<string, { items?: object }>;
    expect(Object.keys(subscription)).not.toContain('phases');
    expect(Object.keys(subscription)).not.toContain('contract_terms');
    expect(subscription.products!.items).not.toHaveProperty('anyOf');
  });

  it('bills a customer end to end: customer, product and price, invoice, validation, payment, balance, as the HTTP API sees it', async () => {
    const customer = await call(agent, 'create_customer', { name: 'Agent Co', currency: 'EUR' });
    const product = await call(agent, 'create_product', { name: 'Consulting day', type: 'flat_fee' });
    const price = await call(agent, 'create_price_configuration', { product_id: product.id, currency: 'EUR', type: 'fee', prices: [{ amount: 80_000 }] });
    const invoice = await call(agent, 'create_invoice', {
      customer_id: customer.id, line_items: [{ product_id: product.id, price_configuration_id: price.id, name: 'Consulting day', quantity: 2 }],
    });
    expect(invoice.status).toBe('draft');
    const validated = await call(agent, 'validate_invoice', { id: invoice.id });
    expect(validated.number).toEqual(expect.any(String));
    const due = validated.amount_due as number;
    expect(due).toBeGreaterThan(0);

    await call(agent, 'record_payment', { id: invoice.id, amount: due, payment_method_type: 'transfer' });
    const read = await call(agent, 'get_invoice', { id: invoice.id });
    const seen = await owner.get(`/v1/invoices/${invoice.id}`);
    expect([read.amount_due, read.status]).toEqual([0, 'paid']);
    expect(seen.body).toMatchObject({ id: invoice.id, amount_due: 0, status: 'paid', number: validated.number });

    const listed = await call(agent, 'list_invoices', { customer_id: customer.id });
    expect(listed.data.map((i: { id: string }) => i.id)).toEqual([invoice.id]);
  });

  it('a repeated write call has one effect: with the same idempotency_key, or the same arguments and none', async () => {
    const customer = await call(agent, 'create_customer', { name: 'Twice Ltd', currency: 'EUR', idempotency_key: 'agent-run-7' });
    const again = await call(agent, 'create_customer', { name: 'Twice Ltd', currency: 'EUR', idempotency_key: 'agent-run-7' });
    expect(again.id).toBe(customer.id);
    const wallet = await call(agent, 'create_wallet', { customer_id: customer.id });
    const load = { id: wallet.id, type: 'free', amount: 5_000 };
    await call(agent, 'load_wallet', load);
    await call(agent, 'load_wallet', load); // a retry of the same call: not loaded twice
    expect((await owner.get(`/v1/wallets/${wallet.id}`)).body.balance.amount).toBe(5_000);
    await call(agent, 'load_wallet', { ...load, idempotency_key: 'second-load' }); // a deliberate second load
    expect((await owner.get(`/v1/wallets/${wallet.id}`)).body.balance.amount).toBe(10_000);
    const named = await owner.get('/v1/customers?name=Twice%20Ltd');
    expect(named.body.meta.total).toBe(1);
  });

  it('a read-only credential cannot call a write tool; another workspace\'s ids are not found; bad input says what is wrong', async () => {
    const reader = await connect(await keyOf(owner, ['read']));
    try {
      expect((await call(reader, 'list_customers', {})).meta.total).toBeGreaterThan(0);
      expect(await toolError(reader, 'create_customer', { name: 'No', currency: 'EUR' })).toMatchObject({ code: 'insufficient_scope' });
    } finally {
      await reader.close();
    }
    const stranger = await api.client();
    await withEntity(stranger);
    const foreign = (await stranger.post('/v1/customers', { name: 'Elsewhere', currency: 'EUR' })).body;
    expect(await toolError(agent, 'get_customer', { id: foreign.id })).toMatchObject({ code: 'not_found' });
    expect(await toolError(agent, 'create_invoice', { customer_id: 'cus_x', line_items: 'many' })).toMatchObject({ code: 'invalid_request' });
    expect(await toolError(agent, 'no_such_tool', {})).toMatchObject({ code: 'unknown_tool' });
  });
});
