import type { Schema } from './common';

/** A JSON-RPC 2.0 request or notification (MCP over Streamable HTTP); the MCP SDK checks the rest. */
export const jsonRpcMessage: Schema = {
  type: 'object',
  required: ['jsonrpc', 'method'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { anyOf: [{ type: 'string', maxLength: 255 }, { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }] },
    method: { type: 'string', minLength: 1, maxLength: 255 },
    // Open by design (JSON-RPC): the MCP SDK checks it per method, and a tool's arguments are checked by its route's validators.
    params: { type: 'object', additionalProperties: true },
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

