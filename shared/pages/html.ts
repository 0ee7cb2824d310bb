import { createHash } from 'node:crypto';
import type { Language } from '../i18n/catalog';
import { PAGE_CSS } from './style';

/** HTML-escapes text and attribute values (every value that reaches a page goes through here). */
export const esc = (value: unknown): string =>
  String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Markup already escaped: built by `html` below, inserted as it is. */
export class Markup {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = Markup | string | number | null | undefined | false | readonly Part[];

const render = (part: Part): string =>
  part === null || part === undefined || part === false ? '' : part instanceof Markup ? part.value : Array.isArray(part) ? part.map(render).join('') : esc(part);

/** A template tag: interpolated values are escaped unless they are Markup (or arrays of it). */
export const html = (strings: TemplateStringsArray, ...parts: Part[]): Markup =>
  new Markup(strings.reduce((out, s, i) => out + s + (i < parts.length ? render(parts[i] as Part) : ''), ''));

/** The CSS is inlined and allowed by its hash: no other style, no script, no third-party origin. */
const STYLE_HASH = `'sha256-${createHash('sha256').update(PAGE_CSS).digest('base64')}'`;

/** Who may frame the pages: `PAGES_FRAME_ANCESTORS` (CSP source list), default none. */
export const frameAncestors = (): string => process.env.PAGES_FRAME_ANCESTORS?.trim() || "'none'";

/**
 * The headers of every page (docs/hosted-pages.md, "Security"): a strict Content-Security-Policy (nothing but this
 * page's own inline CSS and same-origin images and form posts), no Referer to another origin (the URL is a credential), no caching.
 */
export function pageHeaders(): Record<string, string> {
  const ancestors = frameAncestors();
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': [
      "default-src 'none'",
      `style-src ${STYLE_HASH}`,
      "img-src 'self' data:",
      "form-action 'self'",
      "base-uri 'none'",
      `frame-ancestors ${ancestors}`,
    ].join('; '),
    ...(ancestors === "'none'" && { 'x-frame-options': 'DENY' }),
    'referrer-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}

export interface Layout {
  language: Language;
  title: string;
  body: Markup;
  footer?: string;
}

export const document = ({ language, title, body, footer }: Layout): string =>
  `<!doctype html>${html`<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow"><title>${title}</title><style>${new Markup(PAGE_CSS)}</style></head><body><main id="main">${body}</main>${footer ? html`<footer>${footer}</footer>` : ''}</body></html>`}`;
