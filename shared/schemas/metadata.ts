/**
 * Free metadata (`properties`, `custom_properties`, `translations`, `accounting`): any JSON the caller likes, within
 * bounds that keep every item storable in DynamoDB (400 KB an item, 32 levels of nesting, numbers between 1e-130
 * and 1e126) and every number exact in JavaScript. The same bounds hold for every metadata member of every route:
 * the `metadata` schema fragment (common.ts) carries them in its `x-metadata-bounds` keyword, which the validator
 * generator (bin/generate-validators.ts) compiles into a call of `metadataProblem`.
 */
export const METADATA_BOUNDS = {
  /** Levels of objects and arrays, the member itself being level 1. */
  maxDepth: 8,
  /** Keys of any one object (at any level). */
  maxKeys: 50,
  /** Items of any one array. */
  maxItems: 100,
  /** Characters of a key (keys are never empty nor `__proto__`). */
  maxKeyLength: 100,
  /** Bytes of the member as UTF-8 JSON. */
  maxBytes: 16_384,
} as const;

export type MetadataBounds = typeof METADATA_BOUNDS;

/**
 * The smallest non-zero magnitude DynamoDB stores; JavaScript's largest exact integer bounds the other end. Every
 * number a request may hold without a decimal step of its own (metadata, an event's record values) is 0 or within
 * MIN_MAGNITUDE…2^53 − 1 in magnitude (common.ts, `freeNumber`).
 */
export const MIN_MAGNITUDE = 1e-130;

/**
 * What is wrong with a metadata value, in words that follow its member's name (`body.properties …`), or undefined
 * when it is within bounds. Called by the generated validators after the value passed `type: object`.
 */
export function metadataProblem(value: unknown, bounds: MetadataBounds = METADATA_BOUNDS): string | undefined {
  const problem = walk(value, 1, '', bounds);
  if (problem) return problem;
  const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  return bytes > bounds.maxBytes ? `is ${bytes} bytes as JSON; metadata holds at most ${bounds.maxBytes}` : undefined;
}

function walk(value: unknown, depth: number, at: string, bounds: MetadataBounds): string | undefined {
  const where = at ? ` (at ${at})` : '';
  if (typeof value === 'number') {
    const size = Math.abs(value);
    if (!Number.isFinite(value) || size > Number.MAX_SAFE_INTEGER) return `holds a number beyond ±(2^53 − 1)${where}`;
    if (size !== 0 && size < MIN_MAGNITUDE) return `holds a number closer to 0 than 1e-130${where}`;
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > bounds.maxDepth) return `nests deeper than ${bounds.maxDepth} levels${where}`;
  if (Array.isArray(value)) {
    if (value.length > bounds.maxItems) return `has an array of more than ${bounds.maxItems} items${where}`;
    for (const [i, item] of value.entries()) {
      const problem = walk(item, depth + 1, `${at}[${i}]`, bounds);
      if (problem) return problem;
    }
    return undefined;
  }
  const keys = Object.keys(value);
  if (keys.length > bounds.maxKeys) return `has an object of more than ${bounds.maxKeys} keys${where}`;
  for (const key of keys) {
    if (key === '') return `has an empty key${where}`;
    if (key === '__proto__') return `has the reserved key '__proto__'${where}`;
    if ([...key].length > bounds.maxKeyLength) return `has a key longer than ${bounds.maxKeyLength} characters${where}`;
    const problem = walk((value as Record<string, unknown>)[key], depth + 1, at ? `${at}.${key}` : key, bounds);
    if (problem) return problem;
  }
  return undefined;
}
