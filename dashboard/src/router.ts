/**
 * The dashboard's router: paths under /dashboard/ with the History API (no full-page reload between screens; deep
 * links and reloads are served the page, which shows the screen of its path). A screen gets the main element, its
 * path parameters and the query (filters and page live in the URL, so back and forward restore them).
 */
export type Screen = (main: HTMLElement, params: Record<string, string>, query: URLSearchParams) => Promise<void> | void;

interface Route {
  pattern: RegExp;
  names: string[];
  screen: Screen;
}

const table: Route[] = [];
let main: HTMLElement;
let notFound: Screen;
let rendering = 0;

export function route(path: string, screen: Screen): void {
  const names: string[] = [];
  const source = path.replace(/:(\w+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  table.push({ pattern: new RegExp(`^/dashboard${source}/?$`), names, screen });
}

export async function render(): Promise<void> {
  const ticket = ++rendering;
  const { pathname, search } = location;
  const hit = table.map((r) => ({ r, m: r.pattern.exec(pathname) })).find((x) => x.m);
  const params = Object.fromEntries((hit?.r.names ?? []).map((name, i) => [name, decodeURIComponent(hit!.m![i + 1]!)]));
  await (hit?.r.screen ?? notFound)(main, params, new URLSearchParams(search));
  if (ticket !== rendering) return; // a later navigation already replaced this screen
  // The new screen's heading takes the focus (screen readers announce it) and names the tab.
  const heading = main.querySelector('h1');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: false });
    document.title = `${heading.textContent} · Billing`;
  }
  document.dispatchEvent(new CustomEvent('dashboard:navigated'));
}

/** The element screens render into (the frame is drawn again when the language changes). */
export const mount = (element: HTMLElement): void => void (main = element);

export function navigate(path: string, options: { replace?: boolean } = {}): Promise<void> {
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  return render();
}

/** Same-origin links under /dashboard/ navigate in place; modified clicks (new tab) are left to the browser. */
export function startRouter(fallback: Screen): void {
  notFound = fallback;
  document.addEventListener('click', (event) => {
    const link = (event.target as Element).closest?.('a');
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !url.pathname.startsWith('/dashboard/') || link.hasAttribute('download') || link.target) return;
    event.preventDefault();
    void navigate(url.pathname + url.search);
  });
  window.addEventListener('popstate', () => void render());
}
