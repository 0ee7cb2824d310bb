import type { APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { DomainError } from '../../shared/errors';
import { errorResponse } from '../../shared/http/errors';
import { requestCtx, type AuthorizedEvent } from '../../shared/http/request-context';
import { eventRequestId } from '../../shared/http/request-id';
import { requestParts } from '../../shared/http/request-parts';
import { apiHeaders, json } from '../../shared/http/responses';
import { serviceIssuer } from '../../shared/identity/issuer';
import { routeInvoker } from '../../shared/mcp/route-invoker';
import { mcpServer } from '../../shared/mcp/server';
import { route } from '../../shared/schemas/generated/mcp.js';

const invoke = routeInvoker();

/**
 * POST /mcp: the MCP Streamable HTTP endpoint, stateless with JSON responses (docs/mcp.md). The credential is the
 * API's (an OAuth access token or an API key, resolved by the authorizer); each tool call then runs its route's own
 * handler with it, so scopes, isolation, rate limits and idempotency are the HTTP API's.
 */
export const handler = async (event: AuthorizedEvent, context: Context): Promise<APIGatewayProxyResultV2> => {
  const requestId = eventRequestId(event);
  try {
    requestCtx(event, route.scope);
  } catch (error) {
    if (error instanceof DomainError) return errorResponse(route, error, requestId);
    throw error;
  }
  let message: unknown;
  try {
    // The API's own parsing and validation first (415, 413, 400 in its error format, as on every route): no query,
    // one JSON-RPC message, never a batch.
    message = requestParts(route, event).body;
  } catch (error) {
    if (error instanceof DomainError) return errorResponse(route, error, requestId);
    throw error;
  }
  const headers = new Headers(event.headers as Record<string, string>);
  // Every answer here is JSON: a client that names no media type (curl, a plain HTTP client) accepts what MCP sends.
  if (!headers.get('accept') || headers.get('accept') === '*/*') headers.set('accept', 'application/json, text/event-stream');
  const request = new Request(`${serviceIssuer()}/mcp`, { method: 'POST', headers, body: JSON.stringify(message) });
  const server = mcpServer({ event, context, requestId, invoke });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: message });
    if (response.status >= 400) return protocolRefusal(response, requestId);
    const answerHeaders: Record<string, string> = { ...apiHeaders(requestId) };
    response.headers.forEach((value, name) => {
      answerHeaders[name] = value;
    });
    return { statusCode: response.status, headers: answerHeaders, body: await response.text() };
  } finally {
    await server.close();
  }
};

/**
 * A request the MCP transport itself refuses (a wrong Accept header, a JSON-RPC response posted as a request…):
 * answered in the API's error format like every other refusal, with the transport's reason.
 */
async function protocolRefusal(response: Response, requestId: string): Promise<APIGatewayProxyResultV2> {
  const refused = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
  const message = refused.error?.message ?? `The MCP transport refused the request (${response.status}).`;
  return json(response.status, { message, code: 'mcp_request_refused', request_id: requestId }, requestId);
}
