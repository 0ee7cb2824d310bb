/**
 * pdfkit, loaded so that it bundles into one Lambda file. pdfkit's Node build (`import 'pdfkit'`) loads the
 * metrics of its standard fonts at run time with `createRequire(import.meta.url)('#standard-fonts/Helvetica')`,
 * which esbuild cannot follow: inlined into a bundle, the first document throws "Cannot find module
 * '#standard-fonts/Helvetica'" (foliojs/pdfkit#1801). Its platform-neutral build instead takes the metrics from
 * the caller (`registerStdFonts`), and the metric modules are ordinary imports that esbuild inlines. That build
 * is not in pdfkit's `exports`, hence the path into node_modules (pdfkit is a direct dependency, so npm always
 * installs it at the top level). No file is read and nothing is fetched: the text fonts are the built-in Helvetica
 * and Helvetica-Bold (WinAnsi text), or for a Factur-X the embedded Roboto of ./fonts.ts, which pdfkit takes as a
 * ready-made font object (fontkit itself is never called, and stubbed in the bundle). Streams are deflated with fflate.
 */
import Helvetica from 'pdfkit/standard-fonts/Helvetica';
import HelveticaBold from 'pdfkit/standard-fonts/HelveticaBold';
import { PDFDocument, registerStdFonts } from '../../../../node_modules/pdfkit/js/pdfkit.browser.mjs';
import { BOLD, FONT, printsOnly } from './text-fonts';

registerStdFonts(Helvetica, HelveticaBold);

export type PdfDocument = PDFKit.PDFDocument;

/** A font object pdfkit lays text out with (./fonts.ts `layoutFont`). */
export type FontSource = object;

/** Fonts to embed, and the characters they print. */
export interface Embedded {
  regular: FontSource;
  bold: FontSource;
  characters: ReadonlySet<number>;
}

/** A document whose FONT and BOLD are the built-in Helvetica, or the given embedded fonts. */
export function createDocument(options: PDFKit.PDFDocumentOptions, embedded?: Embedded): PdfDocument {
  // pdfkit's types say string, but it takes any object that lays out text like a fontkit font.
  const regular = (embedded?.regular ?? 'Helvetica') as string;
  const doc = new PDFDocument({ ...options, font: regular });
  doc.registerFont(FONT, regular);
  doc.registerFont(BOLD, (embedded?.bold ?? 'Helvetica-Bold') as string);
  if (embedded) {
    for (const name of [BOLD, FONT]) primeEmbedded(doc.font(name));
    printsOnly(doc, (c) => embedded.characters.has(c.codePointAt(0)!));
  } else {
    rememberStandardFont(doc, FONT);
  }
  return doc;
}

/**
 * pdfkit opens a registered standard font anew on each `doc.font(name)` (parsing its metrics: most of a PDF's
 * rendering time) when the document already has it open under its own name, as the default font, keeping the
 * open one without remembering the name. Remembered here, once: the font is the same object either way.
 */
function rememberStandardFont(doc: PdfDocument, name: string): void {
  const open = doc as unknown as { _font: unknown; _fontFamilies: Record<string, unknown> };
  open._fontFamilies[name] = (doc.font(name) as unknown as typeof open)._font;
}

interface PdfkitEmbeddedFont {
  unicode: number[][];
  widths: number[];
  scale: number;
  font: { allGlyphs(): [number, number, number][] };
}

/**
 * pdfkit lists the widths and the Unicode of the glyphs a text used, by glyph id, and expects those ids to be
 * consecutive (fontkit's subsets are); our program is cut beforehand, so every glyph is listed up front, which also
 * gives PDF/A the width of each glyph the program holds.
 */
function primeEmbedded(doc: PdfDocument): void {
  const font = (doc as unknown as { _font: PdfkitEmbeddedFont })._font;
  for (const [id, codePoint, width] of font.font.allGlyphs()) {
    font.unicode[id] ??= [codePoint];
    font.widths[id] ??= width * font.scale;
  }
}

/** Ends the document and collects its bytes. */
export function toBuffer(doc: PdfDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}
