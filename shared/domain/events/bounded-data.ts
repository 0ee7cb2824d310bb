/**
 * An event's `data` is the resource's public representation, which may hold free members (`properties`,
 * `metadata`…) of any depth and size the resource was stored with. Events and messages are DynamoDB items (at most
 * 32 nesting levels and 400 KB, with the message wrapping `data` two levels down) and webhook bodies, so `data` is
 * bounded: a top-level member nested deeper than MAX_MEMBER_DEPTH is omitted, then the largest members are omitted
 * until the JSON fits MAX_DATA_BYTES. An omitted member becomes `null` and its name is listed in the payload's
 * `truncated`; the full resource stays readable through the API.
 */
export const MAX_MEMBER_DEPTH = 16;
export const MAX_DATA_BYTES = 96 * 1024;

export interface BoundedData {
  data: object;
  /** The top-level members omitted (set to null), in the order they were dropped; absent when nothing was. */
  truncated?: string[];
}

/** Nesting depth of a JSON value: 0 for a scalar, 1 + the deepest member for an object or array. Stops counting past `limit`. */
function depth(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object') return 0;
  if (limit < 0) return 1;
  let deepest = 0;
  for (const member of Object.values(value)) {
    deepest = Math.max(deepest, depth(member, limit - 1));
    if (deepest > limit) break;
  }
  return 1 + deepest;
}

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? 'null');

export function boundData(data: object): BoundedData {
  const bounded: Record<string, unknown> = { ...data };
  const truncated: string[] = [];
  const omit = (name: string) => {
    bounded[name] = null;
    truncated.push(name);
  };
  for (const [name, value] of Object.entries(bounded)) if (depth(value, MAX_MEMBER_DEPTH) > MAX_MEMBER_DEPTH) omit(name);
  if (bytes(bounded) > MAX_DATA_BYTES) {
    const bySize = Object.entries(bounded)
      .map(([name, value]) => ({ name, size: bytes(value) }))
      .sort((a, b) => b.size - a.size || a.name.localeCompare(b.name));
    for (const { name } of bySize) {
      if (bytes(bounded) <= MAX_DATA_BYTES) break;
      if (name !== 'id') omit(name);
    }
  }
  return truncated.length > 0 ? { data: bounded, truncated } : { data };
}
