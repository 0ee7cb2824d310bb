/** Drawing primitives of the invoice PDF: positioned text, rules, page room, running footers. A4, points. */
import { printableText, type Words } from './labels';
import type { PdfDocument } from './pdfkit';
import { BOLD, FONT, printableIn } from './text-fonts';

export const MARGIN = 50;
/** The bottom margin holds the running footer. */
export const FOOTER_SPACE = 70;
export const INK = '#111827';
export const MUTED = '#6B7280';
export const LINE = '#D1D5DB';

export interface TextStyle {
  size?: number;
  bold?: boolean;
  color?: string;
  align?: 'left' | 'right' | 'center';
  /** Defaults to the rest of the line. */
  width?: number;
  /** Kept on one line (a figure): printed smaller rather than wrapped when the box is too narrow. */
  nowrap?: boolean;
}

export const left = (doc: PdfDocument): number => doc.page.margins.left;
export const contentWidth = (doc: PdfDocument): number => doc.page.width - doc.page.margins.left - doc.page.margins.right;
const bottom = (doc: PdfDocument): number => doc.page.height - doc.page.margins.bottom;

function options(doc: PdfDocument, x: number, style: TextStyle): PDFKit.Mixins.TextOptions {
  return { width: style.width ?? left(doc) + contentWidth(doc) - x, align: style.align ?? 'left', lineGap: 1 };
}

/** The width of `value` on one line in the font of `style`. */
export function widthOf(doc: PdfDocument, value: string, style: TextStyle = {}): number {
  doc.font(style.bold ? BOLD : FONT).fontSize(style.size ?? 9);
  return doc.widthOfString(printableText(value, printableIn(doc)));
}

/** The width of the widest word of `value` (what a box must give it for no word to be cut). */
export const widestWord = (doc: PdfDocument, value: string, style: TextStyle = {}): number =>
  Math.max(0, ...value.split(/[ \n]+/).map((word) => widthOf(doc, word, style)));

/**
 * The size `value` is printed at in its box: the style's, or smaller when a word of it would not fit the box's
 * width (a long e-mail address, an amount in millions), so that text wraps between words only and pdfkit never cuts
 * one (it breaks a word too long for its box wherever the box ends).
 */
function fittedSize(doc: PdfDocument, value: string, x: number, style: TextStyle): number {
  const size = style.size ?? 9;
  const width = options(doc, x, style).width!;
  const widest = style.nowrap ? widthOf(doc, value, style) : widestWord(doc, value, style);
  return widest <= width ? size : Math.floor((size * width * 10) / widest) / 10;
}

/** Sets the font of `style` (at the size `value` fits its box) and returns the height `value` takes in its box. */
export function measure(doc: PdfDocument, value: string, x: number, style: TextStyle = {}): number {
  const size = fittedSize(doc, value, x, style);
  doc.font(style.bold ? BOLD : FONT).fontSize(size);
  return doc.heightOfString(printableText(value, printableIn(doc)), options(doc, x, style));
}

/** Writes `value` in a box whose top left is (x, y), wrapping between words to its width; returns the y below it. */
export function text(doc: PdfDocument, value: string, x: number, y: number, style: TextStyle = {}): number {
  const height = measure(doc, value, x, style);
  doc.fillColor(style.color ?? INK).text(printableText(value, printableIn(doc)), x, y, options(doc, x, style));
  return y + height;
}

/** Writes lines one under the other; returns the y below the last. */
export function lines(doc: PdfDocument, values: string[], x: number, y: number, style: TextStyle = {}): number {
  return values.reduce((at, value) => text(doc, value, x, at, style), y);
}

export function rule(doc: PdfDocument, y: number, color = LINE, x = left(doc), width = contentWidth(doc)): void {
  doc.save().moveTo(x, y).lineTo(x + width, y).lineWidth(0.75).strokeColor(color).stroke().restore();
}

export function band(doc: PdfDocument, x: number, y: number, width: number, height: number, color: string): void {
  doc.save().rect(x, y, width, height).fillColor(color).fill().restore();
}

/**
 * The y at which `height` points fit: `y` itself, or the top of a new page, where `heading` (when given) is
 * drawn first and the y below it returned.
 */
export function room(doc: PdfDocument, y: number, height: number, heading?: (top: number) => number): number {
  if (y + height <= bottom(doc)) return y;
  doc.addPage();
  const top = doc.page.margins.top;
  return heading ? heading(top) : top;
}

/** Draws `footer` and "Page n of m" in the bottom margin of every page (the document buffers its pages). */
export function runningFooters(doc: PdfDocument, footer: string, { t }: Words): void {
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index += 1) {
    doc.switchToPage(index);
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing inside the margin must not start a new page
    const top = doc.page.height - margin + 14;
    rule(doc, top - 6);
    const style: TextStyle = { size: 7.5, color: MUTED, width: contentWidth(doc) };
    if (footer.trim() !== '') {
      doc.font(FONT).fontSize(7.5).fillColor(MUTED).text(printableText(footer, printableIn(doc)), left(doc), top, { width: contentWidth(doc) - 70, height: 34, ellipsis: true, lineGap: 1 });
    }
    text(doc, t('pdf.page', { page: index - range.start + 1, pages: range.count }), left(doc), top, { ...style, align: 'right' });
    doc.page.margins.bottom = margin;
  }
}
