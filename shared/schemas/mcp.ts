import type { Schema } from './common';

/** A JSON-RPC 2.0 request or notification (MCP over Streamable HTTP); the MCP SDK checks the rest. */
export const jsonRpcMessage: Schema = {
  type: 'object',
  required: ['jsonrpc', 'method'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { anyOf: [{ type: 'string', maxLength: 255 }, { type: 'integer' }] },
    method: { type: 'string', minLength: 1, maxLength: 255 },
    params: { type: 'object' },
  },
  additionalProperties: false,
};

/** A JSON-RPC 2.0 response: a result, or an error (a tool's failure is a result with `isError`, never this). */
export const jsonRpcResponse: Schema = {
  type: 'object',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { type: ['string', 'integer', 'null'] },
    result: { type: 'object', additionalProperties: true },
    error: jsonRpcErrorMembers(),
  },
};

function jsonRpcErrorMembers(): Schema {
  return {
    type: 'object',
    required: ['code', 'message'],
    properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
  };
}

/** The body of a 4xx the MCP endpoint answers itself (malformed JSON, a wrong Accept header…): JSON-RPC's. */
export const jsonRpcErrorResource: Schema = {
  type: 'object',
  required: ['jsonrpc', 'error'],
  properties: { jsonrpc: { type: 'string', enum: ['2.0'] }, id: { type: ['string', 'integer', 'null'] }, error: jsonRpcErrorMembers() },
};
