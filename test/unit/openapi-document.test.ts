import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { renderApiReference } from '../../lib/api-reference';
import { openApiDocument } from '../../lib/openapi';
import { routes } from '../../functions/routes';

type Node = Record<string, any>;
const document = openApiDocument() as unknown as Node;

/** Every schema node of the document with its JSON pointer. */
function* schemaNodes(node: unknown, pointer = ''): Generator<[string, Node]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* schemaNodes(item, `${pointer}/${i}`);
    return;
  }
  if (!node || typeof node !== 'object') return;
  yield [pointer, node as Node];
  for (const [key, value] of Object.entries(node)) if (key !== 'enum' && key !== 'examples' && key !== 'example') yield* schemaNodes(value, `${pointer}/${key}`);
}

const hasType = (node: Node, type: string) => node.type === type || (Array.isArray(node.type) && node.type.includes(type));

describe('the OpenAPI document', () => {
  it('gives every array its items', () => {
    const bare = [...schemaNodes(document)].filter(([, node]) => hasType(node, 'array') && !node.items).map(([pointer]) => pointer);
    expect(bare).toEqual([]);
  });

  it('describes every object of a resource: its members listed in required, or free-form said explicitly', () => {
    const vague = [...schemaNodes(document.components.schemas, '#/components/schemas')]
      .filter(([, node]) => hasType(node, 'object') && !('additionalProperties' in node) && (!node.properties || !Array.isArray(node.required)))
      .map(([pointer]) => pointer);
    expect(vague).toEqual([]);
  });

  it('names the resources as components and refers to them', () => {
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['Error', 'Customer', 'Invoice', 'InvoicingEntity', 'Product', 'Quote', 'Wallet']));
    const getInvoice = document.paths['/v1/invoices/{id}'].get;
    expect(getInvoice.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Invoice' });
    expect(document.paths['/v1/invoices'].get.responses['200'].content['application/json'].schema.properties.data.items).toEqual({ $ref: '#/components/schemas/Invoice' });
  });

  it('requires a request body only where the route needs one', () => {
    const validate = document.paths['/v1/invoices/{id}/validate'].post;
    expect(validate.requestBody).toBeUndefined();
    expect(document.paths['/v1/invoices/{id}/charge'].post.requestBody.required).toBe(false);
    expect(document.paths['/v1/customers'].post.requestBody.required).toBe(true);
  });

  it('documents the shared error responses and headers on every operation', () => {
    for (const route of routes) {
      const operation = document.paths[route.path][route.method.toLowerCase()];
      expect(operation.description).toEqual(expect.any(String));
      // A public route (discovery, OAuth, pages) takes no bearer token, has no workspace limit and no idempotency.
      const authenticated = route.scope !== 'public';
      const statuses = authenticated ? ['400', '401', '403', '429', '500'] : ['400', '429', '500'];
      for (const status of statuses) expect(operation.responses[status]).toBeDefined();
      if (!authenticated) expect([operation.responses['401'], operation.security]).toEqual([undefined, []]);
      const success = operation.responses[String(route.response.status)];
      const limitHeaders = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
      expect(Object.keys(success.headers)).toEqual(expect.arrayContaining(['X-Request-Id', ...(authenticated ? limitHeaders : [])]));
      const headerParameters = (operation.parameters as Node[]).filter((p) => p.$ref).map((p) => p.$ref);
      expect(headerParameters.includes('#/components/parameters/IdempotencyKey')).toBe(authenticated && route.method !== 'GET' && route.method !== 'DELETE');
    }
    expect(document.components.responses.TooManyRequests.headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(document.tags.map((tag: Node) => tag.name)).toEqual([...new Set(routes.map((route) => route.tag))]);
  });
});

describe('docs/api.md', () => {
  it('is the reference rendered from the current OpenAPI document (npm run docs:api)', () => {
    expect(readFileSync('docs/api.md', 'utf8')).toBe(renderApiReference());
  });
});

describe('the documentation', () => {
  const files = ['README.md', ...readdirSync('docs').filter((name) => name.endsWith('.md')).map((name) => join('docs', name))];

  it('links only to files inside the repository that exist', () => {
    const root = resolve('.');
    const broken: string[] = [];
    for (const file of files) {
      for (const [, target] of readFileSync(file, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target!)) continue;
        const path = resolve(dirname(file), target!.split('#')[0]!);
        if (relative(root, path).startsWith('..') || !existsSync(path)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
