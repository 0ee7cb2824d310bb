import { winAnsi, type Printable } from './labels';
import type { PdfDocument } from './pdfkit';

/**
 * The names the drawing code uses for the text fonts, whichever fonts they are, and what each document's fonts
 * print. Apart from ./pdfkit.ts, which starts pdfkit on import: the modules that shape a document's words and
 * figures (header, table, totals) import the layout, which needs these and not pdfkit, so a function can prepare a
 * document and leave the drawing to the module loaded on first use (#lazy/pdf-sheet, lib/bundling.ts).
 */
export const FONT = 'body';
export const BOLD = 'body-bold';

const charsets = new WeakMap<PdfDocument, Printable>();

/** What the document's fonts print (./labels.ts `printableText` replaces the rest). */
export const printableIn = (doc: PdfDocument): Printable => charsets.get(doc) ?? winAnsi;

/** The document's fonts are embedded ones, printing these characters. */
export const printsOnly = (doc: PdfDocument, printable: Printable): void => void charsets.set(doc, printable);
