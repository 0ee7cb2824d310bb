import { LANGUAGES, type Language } from '../schemas/value-sets';
import { de } from './messages/de';
import { en, type MessageKey } from './messages/en';
import { es } from './messages/es';
import { fr } from './messages/fr';
import { it } from './messages/it';
import { nl } from './messages/nl';
import { pl } from './messages/pl';
import { pt } from './messages/pt';

export type { MessageKey } from './messages/en';
export type { Language } from '../schemas/value-sets';

/**
 * One plain key → text map per spec language (shared/i18n/messages/<language>.ts), for the hosted pages and, later,
 * the invoice PDF. Texts may hold `{name}` placeholders. test/unit/i18n-catalogs.test.ts checks that every language
 * has exactly the English keys, each non-empty and with the same placeholders.
 */
export type Catalog = Record<MessageKey, string>;

export const CATALOGS: Record<Language, Catalog> = { en, fr, de, it, nl, es, pt, pl };

export const DEFAULT_LANGUAGE: Language = 'en';

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
  CATALOGS[language][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
