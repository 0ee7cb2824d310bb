import type { RouteDefinition } from '../../functions/routes';

export type Match =
  | { kind: 'route'; route: RouteDefinition; pathParameters: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'malformed-path'; segment: string }
  | { kind: 'not-found' };

interface Compiled {
  route: RouteDefinition;
  pattern: RegExp;
  names: string[];
}

/** Matches requests against the route table as API Gateway does: literal segments win over `{param}` ones. */
export function createRouter(routes: RouteDefinition[]) {
  const compiled: Compiled[] = routes
    .map((route) => {
      const names: string[] = [];
      const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      return { route, pattern: new RegExp(`^${source}$`), names };
    })
    .sort((a, b) => a.names.length - b.names.length);

  return (method: string, path: string): Match => {
    const candidates = compiled
      .map((c) => ({ c, m: c.pattern.exec(path) }))
      .filter((x): x is { c: Compiled; m: RegExpExecArray } => x.m !== null);
    if (candidates.length === 0) return { kind: 'not-found' };
    const hit = candidates.find(({ c }) => c.route.method === method);
    if (!hit) return { kind: 'method-not-allowed', allow: [...new Set(candidates.map(({ c }) => c.route.method))] };
    const pathParameters: Record<string, string> = {};
    for (const [i, name] of hit.c.names.entries()) {
      const segment = hit.m[i + 1]!;
      const value = decodeSegment(segment);
      if (value === undefined) return { kind: 'malformed-path', segment: segment.slice(0, 64) };
      pathParameters[name] = value;
    }
    return { kind: 'route', route: hit.c.route, pathParameters };
  };
}

/** Percent-decodes one path segment; undefined when its encoding is malformed (`%ZZ`, overlong `%C0%AF`, a lone `%`). */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
