import type { McpResults } from './mcp-scenarios';
import type { TargetCheck } from './targets';

/** The MCP issue's target: the whole tool list, as an agent loads it. */
export const MCP_LIST_CHARACTERS = 40_000;

const ms = (value: number) => `${value.toFixed(2)} ms`;
const n = (value: number) => Math.round(value).toLocaleString('en-US');

export function mcpTargets(m: McpResults): TargetCheck[] {
  return [
    {
      target: `MCP tool list (${m.toolCount} tools: names, descriptions, schemas) < ${n(MCP_LIST_CHARACTERS)} characters`,
      measured: `${n(m.listCharacters)} characters (largest: ${m.largest.name}, ${n(m.largest.characters)})`,
      pass: m.listCharacters < MCP_LIST_CHARACTERS,
    },
  ];
}

export function mcpReport(m: McpResults): string {
  return [
    '## MCP tools beside their routes',
    '',
    `The tool list: ${m.toolCount} tools, ${n(m.listCharacters)} characters of JSON (the largest tool, ${m.largest.name}, ${n(m.largest.characters)}).`,
    '',
    'Each tool call through the official SDK client (a JSON-RPC `tools/call` on POST /mcp, which runs the route\'s handler in-process locally; on AWS it invokes the route\'s function) beside the same request sent to its route, interleaved:',
    '',
    '| tool | p50 | p95 | its route | p50 | p95 |',
    '|---|---|---|---|---|---|',
    ...m.latencies.map((l) => `| ${l.tool} | ${ms(l.viaTool.summary.p50)} | ${ms(l.viaTool.summary.p95)} | ${l.route} | ${ms(l.viaRoute.summary.p50)} | ${ms(l.viaRoute.summary.p95)} |`),
  ].join('\n');
}
