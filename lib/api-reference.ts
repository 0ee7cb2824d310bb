import { openApiDocument } from './openapi';

/**
 * docs/api.md: the API reference rendered from the OpenAPI document (`npm run docs:api` writes it; a unit test fails
 * when the file is stale), so the repository carries its own reference.
 */
type Node = Record<string, any>;

const doc = () => openApiDocument() as unknown as Node;

const refName = (ref: string) => ref.split('/').pop()!;
const anchor = (name: string) => name.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');
const cell = (text: unknown) => String(text ?? '').replace(/\|/g, '\\|').replace(/\n+/g, ' ');

/** A short type expression: `string`, `integer \| null`, `Invoice[]`, `"draft" \| "paid"`. */
export function typeOf(schema: Node | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return `[${refName(schema.$ref)}](#${anchor(refName(schema.$ref))})`;
  if (schema.anyOf) return (schema.anyOf as Node[]).map(typeOf).join(' \\| ');
  if (schema.enum) {
    const values = (schema.enum as unknown[]).map((value) => (value === null ? 'null' : `\`${value}\``));
    return values.length > 30 ? `string: one of ${values.length} values (${values.slice(0, 3).join(', ')}…)` : values.join(' \\| ');
  }
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any'];
  return types.map((type) => (type === 'array' ? `${typeOf(schema.items)}[]` : type === 'object' && schema.properties ? 'object' : type)).join(' \\| ');
}

/** The member table of an object schema, nested objects flattened with dotted names. */
function members(schema: Node, prefix = ''): string[] {
  const required = new Set<string>(schema.required ?? []);
  const rows: string[] = [];
  for (const [name, member] of Object.entries<Node>(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    rows.push(`| \`${path}\` | ${typeOf(member)} | ${required.has(name) ? 'yes' : 'no'} | ${cell(member.description)} |`);
    const nested = member.type === 'object' || (Array.isArray(member.type) && member.type.includes('object')) ? member : member.anyOf?.find((s: Node) => s.properties);
    if (nested?.properties) rows.push(...members(nested, `${path}.`));
    if (member.items?.properties) rows.push(...members(member.items, `${path}[].`));
  }
  return rows;
}

const table = (schema: Node) => ['| Member | Type | Required | Description |', '| --- | --- | --- | --- |', ...members(schema)];

function operationSection(method: string, path: string, operation: Node, components: Node): string[] {
  const lines = [`### ${operation.summary}`, '', `\`${method.toUpperCase()} ${path}\` · scope \`${operation['x-required-scope']}\` · \`${operation.operationId}\``, ''];
  lines.push(operation.description.split('\n')[0] === `${operation.summary}.` ? operation.description.split('\n').slice(2).join(' ') : operation.description.replace(/\n+/g, ' '), '');
  const parameters = (operation.parameters as Node[]).map((p) => (p.$ref ? components.parameters[refName(p.$ref)] : p));
  if (parameters.length > 0) {
    lines.push('| Parameter | In | Type | Required |', '| --- | --- | --- | --- |');
    for (const p of parameters) lines.push(`| \`${p.name}\` | ${p.in} | ${typeOf(p.schema)} | ${p.required ? 'yes' : 'no'} |`);
    lines.push('');
  }
  const body = operation.requestBody?.content['application/json'].schema as Node | undefined;
  if (body) {
    lines.push(`Body (${operation.requestBody.required ? 'required' : 'optional: an absent body reads as `{}`'}):`, '');
    lines.push(...(body.properties ? table(body) : [`${typeOf(body)}`]), '');
  }
  const [status, success] = Object.entries<Node>(operation.responses).find(([code]) => /^[23]/.test(code))!;
  const [mediaType, media] = Object.entries<Node>(success.content)[0]!;
  const errors = Object.keys(operation.responses).filter((code) => !/^[23]/.test(code));
  lines.push(`Answers **${status}** \`${mediaType}\`: ${media.schema.properties?.data ? `a list of ${typeOf(media.schema.properties.data.items)}` : typeOf(media.schema)}; errors ${errors.join(', ')}.`, '');
  return lines;
}

export function renderApiReference(): string {
  const document = doc();
  const components = document.components as Node;
  const out: string[] = [
    '# API reference',
    '',
    '<!-- Generated from the OpenAPI document (lib/openapi.ts) by `npm run docs:api`; do not edit. -->',
    '',
    document.info.description,
    '',
    'The same document is served at `/openapi.json` (`npm run openapi` prints it). Design decisions: [decisions.md](decisions.md).',
    '',
    '## Contents',
    '',
    ...document.tags.map((tag: Node) => `- [${tag.name}](#${anchor(tag.name)}): ${tag.description}`),
    '- [Headers](#headers) · [Errors](#errors) · [Resources](#resources)',
    '',
  ];
  for (const tag of document.tags as Node[]) {
    out.push(`## ${tag.name}`, '', tag.description, '');
    for (const [path, item] of Object.entries<Node>(document.paths)) {
      for (const [method, operation] of Object.entries<Node>(item)) if (operation.tags[0] === tag.name) out.push(...operationSection(method, path, operation, components));
    }
  }
  out.push('## Headers', '', '| Header | Direction | Meaning |', '| --- | --- | --- |');
  for (const p of Object.values<Node>(components.parameters)) out.push(`| \`${p.name}\` | request | ${cell(p.description)} |`);
  for (const [name, header] of Object.entries<Node>(components.headers)) out.push(`| \`${name}\` | response | ${cell(header.description)} |`);
  out.push('', '## Errors', '', 'Every error answers the [Error](#error) body (`POST /oauth/register` answers its 400s as [OAuthError](#oautherror)).', '');
  out.push('| Status | Meaning |', '| --- | --- |');
  for (const [status, [name]] of Object.entries(errorNames(components))) out.push(`| ${status} | ${cell(components.responses[name].description)} |`);
  out.push('', '## Resources', '');
  for (const [name, schema] of Object.entries<Node>(components.schemas)) {
    out.push(`### ${name}`, '');
    if (schema.description) out.push(schema.description, '');
    out.push(...table(schema), '');
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function errorNames(components: Node): Record<string, [string]> {
  const statuses: Record<string, [string]> = {};
  for (const [path, item] of Object.entries<Node>(doc().paths)) {
    void path;
    for (const operation of Object.values<Node>(item)) {
      for (const [status, response] of Object.entries<Node>(operation.responses)) if (response.$ref && components.responses[refName(response.$ref)]) statuses[status] = [refName(response.$ref)];
    }
  }
  return Object.fromEntries(Object.entries(statuses).sort(([a], [b]) => Number(a) - Number(b)));
}
