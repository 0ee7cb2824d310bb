/** A browser as the OAuth tests drive one: plain HTTP with cookies, reading forms (no JavaScript needed). */
import { createHash, randomBytes } from 'node:crypto';

export interface Page {
  status: number;
  url: string;
  headers: Headers;
  body: string;
}

/** PKCE (RFC 7636) as a client makes it. */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const unescape = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);

/** The first form of a page: its action and the values a browser would submit (hidden, text, checked radios). */
export function formOf(page: Page): { action: string; fields: Record<string, string> } {
  const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(page.body);
  if (!form) throw new Error(`no form on the page (${page.status} ${page.url}): ${page.body.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input ([^>]*)>/g)) {
    const attribute = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(input[1]!)?.[1];
    const name = attribute('name');
    if (!name || (['radio', 'checkbox'].includes(attribute('type') ?? '') && !/\bchecked\b/.test(input[1]!))) continue;
    fields[name] = unescape(attribute('value') ?? '');
  }
  return { action: new URL(unescape(form[1]!), page.url).href, fields };
}

/**
 * A browser as far as the OAuth flow needs one: it keeps cookies (per origin), follows redirects itself (so a test
 * sees where each one goes), and submits forms. No JavaScript: the pages must work without it.
 */
export function browser() {
  const jar = new Map<string, Map<string, string>>();
  const cookiesOf = (origin: string) => jar.get(origin) ?? jar.set(origin, new Map()).get(origin)!;

  async function request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Page> {
    const origin = new URL(url).origin;
    const cookie = [...cookiesOf(origin)].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: { ...(cookie && { cookie }), ...(init.form && { 'content-type': 'application/x-www-form-urlencoded' }) },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.trim().split('=');
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=.*1970/i.test(a));
      if (gone) cookiesOf(origin).delete(name!);
      else cookiesOf(origin).set(name!, value.join('='));
    }
    return { status: response.status, url, headers: response.headers, body: await response.text() };
  }

  /** Follows redirects from `url` until a page that is not one, or a redirect to a URL starting with `stopAt`. */
  async function visit(url: string, stopAt?: string, init: { form?: Record<string, string> } = {}): Promise<Page> {
    let page = await request(url, init);
    for (let hops = 0; page.status >= 300 && page.status < 400; hops += 1) {
      const next = new URL(page.headers.get('location')!, page.url).href;
      if ((stopAt && next.startsWith(stopAt)) || hops > 10) return page;
      page = await request(next);
    }
    return page;
  }

  /** Submits the page's form with `changes`, following redirects as `visit` does. */
  const submit = (page: Page, changes: Record<string, string> = {}, stopAt?: string) => {
    const form = formOf(page);
    return visit(form.action, stopAt, { form: { ...form.fields, ...changes } });
  };

  return { request, visit, submit, cookies: (origin: string) => cookiesOf(origin), forget: () => jar.clear() };
}

export type Browser = ReturnType<typeof browser>;
