import english from '../messages/en.json';
import french from '../messages/fr.json';

/**
 * The dashboard's own catalogs (dashboard/messages/<language>.json), as the pages' are (shared/i18n): plain key →
 * text, `{name}` placeholders; test/unit/dashboard-catalogs.test.ts keeps every language to the English keys.
 */
export type MessageKey = keyof typeof english;
export const LANGUAGES = { en: english, fr: french } as const;
export type Language = keyof typeof LANGUAGES;
const STORAGE_KEY = 'dashboard.language';

const preferred = (): Language => {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored === 'en' || stored === 'fr') return stored;
  return navigator.language.toLowerCase().startsWith('fr') ? 'fr' : 'en';
};

let language: Language = preferred();

export const currentLanguage = (): Language => language;
/** The operator's locale for dates and amounts: the browser's own when it speaks the chosen language. */
export const locale = (): string => (navigator.language.toLowerCase().startsWith(language) ? navigator.language : language);

export function setLanguage(next: Language): void {
  language = next;
  localStorage.setItem(STORAGE_KEY, next);
  document.documentElement.lang = next;
}

export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  const text: string = LANGUAGES[language][key] ?? english[key];
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));
}
