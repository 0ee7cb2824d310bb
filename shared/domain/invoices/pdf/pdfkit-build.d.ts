/// <reference types="pdfkit" />
/**
 * Types of the two pdfkit modules ./pdfkit.ts loads: pdfkit's platform-neutral ESM build (which @types/pdfkit
 * does not describe: it types `import 'pdfkit'`) and the standard-font metric modules it takes.
 */
declare module '*/pdfkit/js/pdfkit.browser.mjs' {
  /** The metrics of one of the 14 standard PDF fonts (`pdfkit/standard-fonts/<Name>`). */
  export interface StandardFontData {
    name: string;
  }
  export const PDFDocument: new (options?: PDFKit.PDFDocumentOptions) => PDFKit.PDFDocument;
  export function registerStdFonts(...fonts: StandardFontData[]): void;
}

declare module 'pdfkit/standard-fonts/Helvetica' {
  const font: { name: 'Helvetica' };
  export default font;
}

declare module 'pdfkit/standard-fonts/HelveticaBold' {
  const font: { name: 'Helvetica-Bold' };
  export default font;
}
