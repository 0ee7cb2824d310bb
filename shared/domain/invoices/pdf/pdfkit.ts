/**
 * pdfkit, loaded so that it bundles into one Lambda file. pdfkit's Node build (`import 'pdfkit'`) loads the
 * metrics of its standard fonts at run time with `createRequire(import.meta.url)('#standard-fonts/Helvetica')`,
 * which esbuild cannot follow: inlined into a bundle, the first document throws "Cannot find module
 * '#standard-fonts/Helvetica'" (foliojs/pdfkit#1801). Its platform-neutral build instead takes the metrics from
 * the caller (`registerStdFonts`), and the metric modules are ordinary imports that esbuild inlines. That build
 * is not in pdfkit's `exports`, hence the path into node_modules (pdfkit is a direct dependency, so npm always
 * installs it at the top level). No file is read and nothing is fetched: only Helvetica and Helvetica-Bold, the
 * built-in fonts (WinAnsi text), are available. Streams are deflated with fflate.
 */
import Helvetica from 'pdfkit/standard-fonts/Helvetica';
import HelveticaBold from 'pdfkit/standard-fonts/HelveticaBold';
import { PDFDocument, registerStdFonts } from '../../../../node_modules/pdfkit/js/pdfkit.browser.mjs';

registerStdFonts(Helvetica, HelveticaBold);

export type PdfDocument = PDFKit.PDFDocument;

export const FONT = 'Helvetica';
export const BOLD = 'Helvetica-Bold';

export function createDocument(options: PDFKit.PDFDocumentOptions): PdfDocument {
  return new PDFDocument({ font: FONT, ...options });
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
