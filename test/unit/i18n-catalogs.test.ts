import { readdirSync } from 'node:fs';
import { catalog, languageFor, languageFromHeader, translator } from '../../shared/i18n/catalog';
import { formatterFor } from '../../shared/i18n/format';
import { LANGUAGES } from '../../shared/schemas/value-sets';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the translation catalogs', () => {
  const en = catalog('en');

  it('has one catalog per spec language, and no other', () => {
    const files = readdirSync(new URL('../../shared/i18n/messages/', import.meta.url)).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace('.json', '')).sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(LANGUAGES.map((language) => [language]))('%s has every key of English and no other, each non-empty, with the same placeholders', (language) => {
    const texts = catalog(language) as Record<string, string>;
    expect(Object.keys(texts).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) {
      expect([key, texts[key]!.trim().length > 0]).toEqual([key, true]);
      expect([key, placeholders(texts[key]!)]).toEqual([key, placeholders(text)]);
    }
  });

  it('translates each language (not a copy of English) for the texts a page always shows', () => {
    for (const language of LANGUAGES.filter((l) => l !== 'en')) {
      expect([language, catalog(language)['doc.amount_due']]).not.toEqual([language, en['doc.amount_due']]);
    }
  });
});

describe('choosing the language', () => {
  it("takes the customer's language, then the entity's, then English", () => {
    expect(languageFor('de', 'fr')).toBe('de');
    expect(languageFor(null, 'fr')).toBe('fr');
    expect(languageFor('xx', 'it')).toBe('it');
    expect(languageFor(null, null)).toBe('en');
  });

  it('reads Accept-Language by preference, keeping only spec languages', () => {
    expect(languageFromHeader('ja, pl;q=0.8, fr;q=0.9')).toBe('fr');
    expect(languageFromHeader('de-CH')).toBe('de');
    expect(languageFromHeader('ja')).toBe('en');
    expect(languageFromHeader(undefined)).toBe('en');
  });

  it('fills placeholders', () => {
    expect(translator('fr')('pay.submit', { amount: '12 €' })).toBe('Payer 12 €');
  });
});

describe('locale formats', () => {
  it('formats amounts in minor units exactly, with the currency’s decimals', () => {
    expect(formatterFor('de').money(123_456, 'EUR')).toMatch(/^1\.234,56\s€$/);
    expect(formatterFor('fr').money(-5, 'EUR')).toMatch(/^-0,05\s€$/);
    expect(formatterFor('en').money(999, 'JPY')).toBe('¥999');
    expect(formatterFor('en').money(12_345, 'KWD')).toMatch(/^KWD\s12\.345$/);
    // Beyond 2^53 / 100 a float division would lose the last cent; the decimal string does not.
    expect(formatterFor('en').money(9_007_199_254_740_991, 'EUR')).toBe('€90,071,992,547,409.91');
  });

  it('formats dates and rates per locale', () => {
    expect(formatterFor('pl').date('2026-11-23T10:00:00.000Z')).toBe('23 listopada 2026');
    expect(formatterFor('de').percent(8.1)).toMatch(/^8,1\s%$/);
  });
});
