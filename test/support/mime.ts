/**
 * Reads back a MIME message, enough for the emails nodemailer composes: headers (unfolded, RFC 2047 words
 * decoded), multipart bodies split on their boundaries, and leaf parts decoded from base64 or quoted-printable.
 */
export interface MimePart {
  headers: Record<string, string>;
  /** The decoded body of a leaf part (empty for a multipart). */
  body: Buffer;
  parts: MimePart[];
}

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=\s*(?==\?)?/g, (_, _charset: string, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : quotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
  );
}

function quotedPrintable(text: string): Buffer {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i += 1) {
    const hex = soft[i] === '=' ? /^[0-9A-Fa-f]{2}/.exec(soft.slice(i + 1)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

export function parseMime(raw: string): MimePart {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const rest = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.startsWith('multipart/') && boundary) {
    const sections = rest.split(`--${boundary}`).slice(1);
    const parts = sections.filter((section) => !section.startsWith('--')).map((section) => parseMime(section.replace(/^\r?\n/, '')));
    return { headers, body: Buffer.alloc(0), parts };
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const body = encoding === 'base64' ? Buffer.from(rest.replace(/\s+/g, ''), 'base64') : encoding === 'quoted-printable' ? quotedPrintable(rest) : Buffer.from(rest, 'utf8');
  return { headers, body, parts: [] };
}

/** Every leaf part, depth first. */
export const leaves = (part: MimePart): MimePart[] => (part.parts.length === 0 ? [part] : part.parts.flatMap(leaves));

/** The first leaf whose content type starts with `type`. */
export const partOfType = (message: MimePart, type: string): MimePart | undefined =>
  leaves(message).find((part) => (part.headers['content-type'] ?? '').startsWith(type));
