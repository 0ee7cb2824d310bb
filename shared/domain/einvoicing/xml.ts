/** Building XML as text: escaped values, elements left out when they have no value or no children. */

export const escapeXml = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
    // Characters XML 1.0 forbids (controls other than tab and line breaks) are dropped.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');

type Attributes = Record<string, string | undefined>;

const attributes = (attrs: Attributes): string =>
  Object.entries(attrs).filter(([, v]) => v !== undefined).map(([k, v]) => ` ${k}="${escapeXml(v!)}"`).join('');

/** `<name attrs>value</name>`, or '' when the value is null, undefined or blank. */
export function leaf(name: string, value: string | number | null | undefined, attrs: Attributes = {}): string {
  if (value === null || value === undefined || String(value).trim() === '') return '';
  return `<${name}${attributes(attrs)}>${escapeXml(String(value))}</${name}>`;
}

/** `<name attrs>children</name>`, or '' when every child is empty (unless `keepEmpty`). */
export function node(name: string, children: (string | false | null | undefined)[], attrs: Attributes = {}, keepEmpty = false): string {
  const inner = children.filter((c): c is string => typeof c === 'string' && c !== '').join('');
  if (inner === '' && !keepEmpty) return '';
  return `<${name}${attributes(attrs)}>${inner}</${name}>`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
