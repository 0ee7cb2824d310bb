import { ApiError } from './api/client';
import { h, replace } from './dom';
import { count } from './format';
import { t, type MessageKey } from './i18n';
import { navigate } from './router';

export const link = (href: string, text: string, props: Record<string, string> = {}) => h('a', { href, ...props }, text);

export function loading(main: HTMLElement, title: string): void {
  replace(main, h('h1', {}, title), h('p', { class: 'loading', role: 'status' }, t('loading')));
  main.setAttribute('aria-busy', 'true');
}

export const done = (main: HTMLElement) => main.removeAttribute('aria-busy');

/** The API's error as it says it: its message and what it says of each field. */
export function errorBox(error: unknown): HTMLElement {
  const message = error instanceof Error ? error.message : String(error);
  const details = error instanceof ApiError ? error.details : [];
  return h('div', { class: 'error', role: 'alert' }, h('p', {}, message), details.length ? h('ul', {}, details.map((d) => h('li', {}, d))) : null);
}

/** Shows a screen's content, or the error that kept it from loading. */
export async function screen(main: HTMLElement, title: string, build: () => Promise<Array<Node | null>>): Promise<void> {
  loading(main, title);
  try {
    const content = await build();
    replace(main, ...content);
  } catch (error) {
    replace(main, h('h1', {}, title), errorBox(error));
  }
  done(main);
}

/**
 * A screen whose form needs data first: its loading state, the error that kept it from loading, else what `build`
 * makes of the data (given the element where the form shows the API's errors).
 */
export async function formScreen<T>(main: HTMLElement, title: string, load: () => Promise<T>, build: (data: T, errors: HTMLElement) => HTMLElement): Promise<void> {
  loading(main, title);
  try {
    const data = await load();
    replace(main, h('h1', {}, title), build(data, h('div', { 'aria-live': 'assertive' })));
  } catch (error) {
    replace(main, h('h1', {}, title), errorBox(error));
  }
  done(main);
}

const live = () => document.getElementById('live')!;
/** A polite announcement of what an action did (screen readers read it; it shows at the top). */
export function notify(message: string): void {
  replace(live(), message);
}

export const badge = (status: string) => h('span', { class: `badge badge-${status}` }, status.replace(/_/g, ' '));

export const details = (pairs: Array<[string, Node | string | null | undefined]>) =>
  h('dl', { class: 'details' }, pairs.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value ?? '—')]));

export interface Column<T> {
  label: string;
  cell: (item: T) => Node | string;
  numeric?: boolean;
}

/** A table in a region that scrolls on narrow screens (focusable, so the keyboard can scroll it). */
export function table<T>(caption: string, columns: Column<T>[], rows: T[], empty: string): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, empty);
  return h(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': caption },
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: c.numeric ? 'num' : undefined }, c.label)))),
      h('tbody', {}, rows.map((row) => h('tr', {}, columns.map((c) => h('td', { class: c.numeric ? 'num' : undefined }, c.cell(row)))))),
    ),
  );
}

export const PAGE_SIZE = 25;

/** Pages of a list by the API's offsets: only the page shown is loaded, never the whole list. */
export function pager(meta: { total: number; taken: number; skipped: number }, query: URLSearchParams): HTMLElement {
  const at = (skip: number) => {
    const next = new URLSearchParams(query);
    next.set('skip', String(skip));
    return `${location.pathname}?${next}`;
  };
  const first = meta.taken === 0 ? 0 : meta.skipped + 1;
  const last = meta.skipped + meta.taken;
  return h(
    'nav',
    { class: 'pager', 'aria-label': t('pagination') },
    h('p', {}, t('rangeOf', { first: count(first), last: count(last), total: count(meta.total) })),
    meta.skipped > 0 ? link(at(Math.max(0, meta.skipped - PAGE_SIZE)), t('previous'), { rel: 'prev' }) : null,
    last < meta.total ? link(at(last), t('next'), { rel: 'next' }) : null,
  );
}

export interface Field {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'number' | 'date' | 'select' | 'textarea' | 'checkbox';
  value?: string;
  required?: boolean;
  options?: Array<[string, string]>;
  hint?: string;
  inputmode?: string;
}

export function fieldInput(field: Field): HTMLElement {
  const id = `f-${field.name}`;
  const hintId = field.hint ? `${id}-hint` : undefined;
  const common = { id, name: field.name, required: field.required, 'aria-describedby': hintId };
  let input: HTMLElement;
  if (field.type === 'select') {
    input = h('select', common, (field.options ?? []).map(([value, label]) => h('option', { value, selected: value === field.value }, label)));
  } else if (field.type === 'textarea') {
    input = h('textarea', { ...common, rows: 3 }, field.value ?? '');
  } else if (field.type === 'checkbox') {
    return h('div', { class: 'field check' }, h('input', { ...common, type: 'checkbox', value: 'yes', checked: field.value === 'yes' }), h('label', { for: id }, field.label));
  } else {
    input = h('input', { ...common, type: field.type ?? 'text', value: field.value ?? '', inputmode: field.inputmode, autocomplete: 'off' });
  }
  return h('div', { class: 'field' }, h('label', { for: id }, field.label), input, field.hint ? h('p', { id: hintId!, class: 'hint' }, field.hint) : null);
}

export const formValues = (form: HTMLFormElement): Record<string, string> => {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) values[name] = String(value);
  return values;
};

/**
 * A modal form (the native dialog: focus kept inside, Escape closes, focus returns to the button that opened it).
 * `onSubmit` runs the action; an API error stays in the dialog as the API says it, and the dialog stays open.
 */
export function formDialog(options: {
  title: string;
  fields: Field[];
  submitLabel: string;
  danger?: boolean;
  intro?: string;
  /** Shown after the intro, before the fields: what the action will do (a preview of its amounts). */
  content?: Node;
  onSubmit: (values: Record<string, string>) => Promise<void>;
}): void {
  const errors = h('div', { 'aria-live': 'assertive' });
  const submit = h('button', { type: 'submit', class: options.danger ? 'danger' : 'primary' }, options.submitLabel);
  const cancel = h('button', { type: 'button' }, t('cancel'));
  const form = h('form', { method: 'dialog' }, options.fields.map(fieldInput), errors, h('div', { class: 'actions' }, submit, cancel));
  const titleId = `dialog-${Math.random().toString(36).slice(2)}`;
  const dialog = h('dialog', { 'aria-labelledby': titleId }, h('h2', { id: titleId }, options.title), options.intro ? h('p', {}, options.intro) : null, options.content ?? null, form);
  document.body.append(dialog);
  const opener = document.activeElement as HTMLElement | null;
  const close = () => {
    dialog.close();
    dialog.remove();
    opener?.focus();
  };
  cancel.addEventListener('click', close);
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    close();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit.disabled = true;
    replace(errors);
    options
      .onSubmit(formValues(form))
      .then(close, (error: unknown) => replace(errors, errorBox(error)))
      .finally(() => (submit.disabled = false));
  });
  dialog.showModal();
}

/** A confirmation for what moves money or cannot be undone: says what will happen; the action runs on confirm. */
export const confirmAction = (title: string, message: string, confirmLabel: string, action: () => Promise<void>, content?: Node) =>
  formDialog({ title, intro: message, content, fields: [], submitLabel: confirmLabel, danger: true, onSubmit: action });

/** A button that runs an action, then re-renders the screen at `after` (or the current one). */
export const actionButton = (label: string, onClick: () => void, props: Record<string, string> = {}) =>
  h('button', { type: 'button', ...props, onclick: (event: Event) => (event.preventDefault(), onClick()) }, label);

export const refresh = (path: string = location.pathname + location.search) => navigate(path, { replace: true });

/** A filter bar: a GET form whose values go to the URL's query (the list screen reads them from there). */
export function filterForm(fields: Field[], query: URLSearchParams, label: MessageKey = 'filters'): HTMLElement {
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': t(label) }, fields.map((f) => fieldInput({ ...f, value: query.get(f.name) ?? '' })), h('button', { type: 'submit' }, t('apply')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const [name, value] of Object.entries(formValues(form))) if (value) next.set(name, value);
    void navigate(`${location.pathname}${next.size ? `?${next}` : ''}`);
  });
  return form;
}
