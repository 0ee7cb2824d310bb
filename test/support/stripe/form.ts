/**
 * Stripe's request bodies: `application/x-www-form-urlencoded` with nested keys, as the SDK writes them
 * (`metadata[invoice]=inv_1&payment_method_types[0]=card&expand[]=latest_charge`). Decoded into plain objects;
 * numeric brackets and `[]` make arrays.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Form = Record<string, FormValue>;

export function parseForm(text: string): Form {
  const root: Form = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const path = rawKey.split(/[[\]]+/).filter((part, i, parts) => part !== '' || i < parts.length - 1);
    if (rawKey.endsWith('[]')) path.push('');
    let node: Record<string, FormValue> | FormValue[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(path[i + 1]!);
      const container = node as Record<string, FormValue> & FormValue[];
      const key = part === '' && Array.isArray(node) ? node.length : part;
      if (last) container[key as never] = value as never;
      else {
        container[key as never] ??= (nextIsIndex ? [] : {}) as never;
        node = container[key as never] as Record<string, FormValue>;
      }
    });
  }
  return root;
}

/** A member of a decoded form, as text (undefined when absent or not text). */
export const text = (form: Form, key: string): string | undefined => (typeof form[key] === 'string' ? (form[key] as string) : undefined);

/** `metadata[...]` as Stripe stores it: text values only. */
export function metadataOf(form: Form): Record<string, string> {
  const metadata = form.metadata;
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  return Object.fromEntries(Object.entries(metadata).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** `expand[]=a.b` / `expand[0]=a.b`: the paths to expand. */
export function expandOf(form: Form | URLSearchParams): string[] {
  if (form instanceof URLSearchParams) return [...form].filter(([key]) => /^expand(\[\d*\])?$/.test(key)).map(([, value]) => value);
  const expand = form.expand;
  return Array.isArray(expand) ? expand.filter((e): e is string => typeof e === 'string') : [];
}
