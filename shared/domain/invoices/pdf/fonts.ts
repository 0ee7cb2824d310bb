/**
 * The fonts a Factur-X embeds (PDF/A wants every font embedded): Roboto Regular and Bold, cut at build time to the
 * glyphs the PDF prints (bin/generate-fonts.ts writes ./generated/fonts.ts). pdfkit takes any object that lays out
 * text like a fontkit font; this one maps each character to its glyph and advance width (no kerning, no ligatures)
 * and hands pdfkit the prepared TrueType program, so neither fontkit nor the font files are needed at run time.
 */
import { inflateSync } from 'node:zlib';
import { ROBOTO } from './generated/fonts';

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
      return { glyphs, positions, advanceWidth: glyphs.reduce((sum, g) => sum + g.advanceWidth, 0) };
    },
  };
}

let fonts: { regular: ReturnType<typeof layoutFont>; bold: ReturnType<typeof layoutFont> } | undefined;

/** Roboto Regular and Bold, inflated once per process. */
export function embeddedFonts() {
  fonts ??= { regular: layoutFont(ROBOTO.regular), bold: layoutFont(ROBOTO.bold) };
  return fonts;
}
