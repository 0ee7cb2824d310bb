import { readFileSync } from 'node:fs';
import { LANGUAGES, type Language } from '../schemas/value-sets';
import type english from './messages/en.json';

export type { Language } from '../schemas/value-sets';

/**
 * One plain key → text JSON file per spec language (shared/i18n/messages/<language>.json), for the hosted pages and
 * the invoice PDF. Texts may hold `{name}` placeholders. test/unit/i18n-catalogs.test.ts checks that every language
 * has exactly the English keys, each non-empty and with the same placeholders.
 *
 * The files are not bundled into the functions: they travel beside the bundle (lib/bundling.ts `bundleAssets`, at
 * the same path relative to it as to this module) and a language is read on its first use, so a function loads the
 * one or two languages it serves, not all eight, and its bundle does not grow with every text added.
 */
export type MessageKey = keyof typeof english;

export type Catalog = Record<MessageKey, string>;

export const DEFAULT_LANGUAGE: Language = 'en';

const loaded = new Map<Language, Catalog>();

/** The catalog of `language`, read once per process (a few KB, synchronously: it is needed to answer at all). */
export function catalog(language: Language): Catalog {
  let found = loaded.get(language);
  if (!found) {
    found = JSON.parse(readFileSync(new URL(`./messages/${language}.json`, import.meta.url), 'utf8')) as Catalog;
    loaded.set(language, found);
  }
  return found;
}

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** The customer's language, else its invoicing entity's, else English (issue 19). */
export const languageFor = (customerLanguage: string | null | undefined, entityLanguage: string | null | undefined): Language =>
  isLanguage(customerLanguage) ? customerLanguage : isLanguage(entityLanguage) ? entityLanguage : DEFAULT_LANGUAGE;

/** The first spec language an `Accept-Language` header asks for (pages shown before any document is known). */
export function languageFromHeader(header: string | undefined): Language {
  const asked = (header ?? '')
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { language: (tag ?? '').toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q) };
    })
    .filter((a) => a.q > 0)
    .sort((a, b) => b.q - a.q);
  return asked.map((a) => a.language).find(isLanguage) ?? DEFAULT_LANGUAGE;
}

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** The text of `key` in `language`, its placeholders replaced (values are inserted as given: escape when rendering HTML). */
export const translator = (language: Language): Translate => (key, values = {}) =>
  catalog(language)[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
