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
 * What a page with Stripe's Payment Element adds, as Stripe documents it for Stripe.js (docs/payments.md, "The
 * hosted pages with Stripe"): its script from js.stripe.com, its frames (the element, 3-D Secure) from js.stripe.com
 * and hooks.stripe.com, its calls to api.stripe.com; and the page's own script file ('self': the API serves nothing
 * else a browser would run, its JSON is `nosniff`). No inline script, no other origin.
 */
export const STRIPE_PAGE_SOURCES = [
  "script-src 'self' https://js.stripe.com https://*.js.stripe.com",
  'frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com',
  'connect-src https://api.stripe.com',
];

/**
 * The headers of every page (docs/hosted-pages.md, "Security"): a strict Content-Security-Policy (nothing but this
 * page's own inline CSS and same-origin images and form posts; with `stripe`, Stripe.js and the page's script
 * file), no Referer to another origin (the URL is a credential), no caching.
 */
export function pageHeaders(options: { stripe?: boolean } = {}): Record<string, string> {
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
      ...(options.stripe ? STRIPE_PAGE_SOURCES : []),
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
  /** External scripts (the pages' CSP must allow them: pageHeaders `stripe`). */
  scripts?: string[];
  /** The seller's logo, heading the page: a data URL (the CSP's `img-src data:`), its alt text the seller's name. */
  logo?: { src: string; alt: string } | null;
}

export const document = ({ language, title, body, footer, scripts = [], logo }: Layout): string =>
  `<!doctype html>${html`<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow"><title>${title}</title><style>${new Markup(PAGE_CSS)}</style>${scripts.map((src) => html`<script src="${src}" defer></script>`)}</head><body>${logo ? html`<header class="brand"><img src="${logo.src}" alt="${logo.alt}"></header>` : ''}<main id="main">${body}</main>${footer ? html`<footer>${footer}</footer>` : ''}</body></html>`}`;
