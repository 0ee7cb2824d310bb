/**
 * Makes the fonts a PDF embeds (a Factur-X, as PDF/A wants every font embedded; a document with letters beyond WinAnsi,
 * such as Polish) from the TrueType files of the npm package @expo-google-fonts/roboto (Roboto, Apache 2.0): each cut
 * to WinAnsi and Latin Extended-A (the letters of the Central European languages), with their advance widths,
 * deflated and written as base64 into shared/domain/invoices/pdf/generated/roboto.json (git-ignored; run by
 * `npm install`, `npm run generate`). The PDF then needs neither the font files nor fontkit at run time, and the file
 * travels beside the bundles rather than in them (lib/bundling.ts `bundleAssets`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { parseCommandLine } from './command-line';

const require = createRequire(import.meta.url);
const outFile = join(dirname(fileURLToPath(import.meta.url)), '..', 'shared', 'domain', 'invoices', 'pdf', 'generated', 'roboto.json');

/** What the built-in fonts print (WinAnsi: U+0020–U+007E, U+00A0–U+00FF and 27 more), then Latin Extended-A. */
const CUT = [
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i),
  ...Array.from({ length: 0x100 - 0xa0 }, (_, i) => 0xa0 + i),
  ...[...'€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'].map((c) => c.codePointAt(0)!),
  ...Array.from({ length: 0x180 - 0x100 }, (_, i) => 0x100 + i),
];

interface FontkitGlyph { id: number; advanceWidth: number }
interface FontkitFont {
  postscriptName: string; unitsPerEm: number; ascent: number; descent: number; lineGap: number; capHeight: number; xHeight: number; italicAngle: number;
  bbox: { minX: number; minY: number; maxX: number; maxY: number };
  glyphForCodePoint(cp: number): FontkitGlyph;
  getGlyph(id: number): FontkitGlyph;
  createSubset(): { includeGlyph(id: number): number; encode(): Uint8Array };
  'OS/2'?: { sFamilyClass?: number };
}

function cut(path: string) {
  const fontkit = require('fontkit') as { create(bytes: Buffer): FontkitFont };
  const font = fontkit.create(readFileSync(require.resolve(`@expo-google-fonts/roboto/${path}`)));
  const subset = font.createSubset();
  const glyphs: Record<number, [number, number]> = {};
  for (const cp of CUT) {
    const glyph = font.glyphForCodePoint(cp);
    if (glyph.id !== 0) glyphs[cp] = [subset.includeGlyph(glyph.id), glyph.advanceWidth];
  }
  return {
    postscriptName: font.postscriptName, unitsPerEm: font.unitsPerEm, ascent: font.ascent, descent: font.descent, lineGap: font.lineGap,
    capHeight: font.capHeight, xHeight: font.xHeight, italicAngle: font.italicAngle, familyClass: font['OS/2']?.sFamilyClass ?? 0,
    bbox: { minX: font.bbox.minX, minY: font.bbox.minY, maxX: font.bbox.maxX, maxY: font.bbox.maxY },
    notdefWidth: font.getGlyph(0).advanceWidth,
    glyphs,
    deflated: deflateSync(subset.encode(), { level: 9 }).toString('base64'),
  };
}

export function generateFonts(): void {
  const fonts = { regular: cut('400Regular/Roboto_400Regular.ttf'), bold: cut('700Bold/Roboto_700Bold.ttf') };
  // Generated from @expo-google-fonts/roboto (Apache License 2.0) by bin/generate-fonts.ts.
  const content = `${JSON.stringify(fonts)}\n`;
  mkdirSync(dirname(outFile), { recursive: true });
  if (!existsSync(outFile) || readFileSync(outFile, 'utf8') !== content) writeFileSync(outFile, content);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  parseCommandLine('usage: tsx bin/generate-fonts.ts   (run by npm install, npm run generate)\n  writes the fonts a PDF embeds into shared/domain/invoices/pdf/generated/roboto.json', {});
  generateFonts();
}
