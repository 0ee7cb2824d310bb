/**
 * The fonts a PDF embeds (a Factur-X, as PDF/A wants every font embedded; a document with letters beyond WinAnsi):
 * Roboto Regular and Bold, cut at build time to WinAnsi and Latin Extended-A (bin/generate-fonts.ts writes
 * ./generated/roboto.json, which travels beside the bundles: lib/bundling.ts `bundleAssets`). pdfkit takes any object
 * that lays out text like a fontkit font; this one maps each character to its glyph and advance width (no kerning, no
 * ligatures) and hands pdfkit the prepared TrueType program, so neither fontkit nor the font files are needed at run
 * time.
 */
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

export interface FontData {
  postscriptName: string;
  unitsPerEm: number;
  ascent: number;
  descent: number;
  lineGap: number;
  capHeight: number;
  xHeight: number;
  italicAngle: number;
  familyClass: number;
  bbox: { minX: number; minY: number; maxX: number; maxY: number };
  notdefWidth: number;
  /** Code point → [glyph id in the cut font, advance width in font units]. */
  glyphs: Record<number, [number, number]>;
  /** The cut TrueType program, deflated, base64. */
  deflated: string;
}

interface Glyph { id: number; advanceWidth: number; codePoints: number[] }

/** The subset of fontkit's font interface that pdfkit's EmbeddedFont uses. */
export function layoutFont(data: FontData) {
  const program = inflateSync(Buffer.from(data.deflated, 'base64'));
  const fallback = data.glyphs['?'.codePointAt(0)!]!;
  const glyph = (cp: number): Glyph => {
    const [id, advanceWidth] = data.glyphs[cp] ?? fallback;
    return { id, advanceWidth, codePoints: [cp] };
  };
  return {
    postscriptName: data.postscriptName, unitsPerEm: data.unitsPerEm, ascent: data.ascent, descent: data.descent, lineGap: data.lineGap,
    capHeight: data.capHeight, xHeight: data.xHeight, italicAngle: data.italicAngle, bbox: data.bbox,
    'OS/2': { sFamilyClass: data.familyClass }, post: { isFixedPitch: false }, head: { macStyle: { italic: false } },
    // pdfkit writes this one as the width of glyph 0 without scaling it: give it in thousandths of the em already.
    getGlyph: (id: number) => ({ id, advanceWidth: id === 0 ? (data.notdefWidth * 1000) / data.unitsPerEm : 0 }),
    /** Every glyph of the cut program: [glyph id, code point, advance width in font units]. */
    allGlyphs: (): [number, number, number][] => Object.entries(data.glyphs).map(([cp, [id, width]]) => [id, Number(cp), width]),
    // The program is already cut: glyph ids are final.
    createSubset: () => ({ cff: undefined, includeGlyph: (id: number) => id, encode: () => program }),
    layout(text: string) {
      const glyphs = [...text].map((c) => glyph(c.codePointAt(0)!));
      const positions = glyphs.map((g) => ({ xAdvance: g.advanceWidth, yAdvance: 0, xOffset: 0, yOffset: 0 }));
      // A getter over the positions, as fontkit's run has: pdfkit scales the positions to thousandths of the em in
      // place and then reads this, so a total taken here in font units would measure every text 2.048× too wide
      // (Roboto's em is 2048 units) and wrap "Menge" in a column it fits.
      return { glyphs, positions, get advanceWidth() { return positions.reduce((sum, p) => sum + p.xAdvance, 0); } };
    },
  };
}

export type EmbeddedFont = ReturnType<typeof layoutFont>;

let fonts: { regular: EmbeddedFont; bold: EmbeddedFont; characters: ReadonlySet<number> } | undefined;

/** Roboto Regular and Bold, read and inflated once per process, on the first document that embeds them. */
export function embeddedFonts() {
  if (!fonts) {
    const roboto = JSON.parse(readFileSync(new URL('./generated/roboto.json', import.meta.url), 'utf8')) as { regular: FontData; bold: FontData };
    // Both are cut to the same characters.
    fonts = { regular: layoutFont(roboto.regular), bold: layoutFont(roboto.bold), characters: new Set(Object.keys(roboto.regular.glyphs).map(Number)) };
  }
  return fonts;
}


