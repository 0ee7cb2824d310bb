/**
 * The dashboard's parts that run without a browser: its catalogs (every language has the English keys, with the
 * same placeholders), amounts typed in currency units, and the size of what the first screen loads.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import english from '../../dashboard/messages/en.json';
import french from '../../dashboard/messages/fr.json';
import { toMinor } from '../../dashboard/src/money';
import { buildDashboard, DASHBOARD_FILES } from '../../lib/dashboard-build';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('dashboard catalogs', () => {
  it('has every English key in French, non-empty, with the same placeholders', () => {
    expect(Object.keys(french).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(english)) {
      const translated = (french as Record<string, string>)[key]!;
      expect([key, translated.trim().length > 0]).toEqual([key, true]);
      expect([key, placeholders(translated)]).toEqual([key, placeholders(text)]);
    }
  });
});

describe('amounts typed in currency units', () => {
  it.each([
    ['12', 'EUR', 1_200], ['12.5', 'EUR', 1_250], ['12,50', 'EUR', 1_250], ['1 234,56', 'EUR', 123_456], ['0.01', 'EUR', 1],
    ['500', 'JPY', 500], ['1.234', 'KWD', 1_234], ['12.', 'EUR', 1_200],
  ])('%s %s → %d minor units', (text, currency, minor) => {
    expect(toMinor(text, currency)).toBe(minor);
  });

  it.each([['10.001', 'EUR'], ['5.5', 'JPY'], ['1,234.50', 'EUR'], ['-3', 'EUR'], ['abc', 'EUR'], ['', 'EUR'], ['1e3', 'EUR']])('refuses %s %s', (text, currency) => {
    expect(toMinor(text, currency)).toBeUndefined();
  });
});

describe('dashboard bundle', () => {
  it('loads at most 250 KB gzipped for the first screen (page, script, stylesheet)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-'));
    try {
      buildDashboard(dir);
      const sizes = Object.fromEntries(DASHBOARD_FILES.map((file) => [file, gzipSync(readFileSync(join(dir, file))).length]));
      const total = Object.values(sizes).reduce((a, b) => a + b, 0);
      console.log(`dashboard first screen: ${(total / 1024).toFixed(1)} KB gzipped (${JSON.stringify(sizes)})`);
      expect(total).toBeLessThanOrEqual(250 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
