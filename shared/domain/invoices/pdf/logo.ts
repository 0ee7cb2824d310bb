/**
 * The seller's logo on its documents: the copy stored when `logo_url` was set (shared/domain/invoicing-entities/
 * logo.ts), never fetched while rendering. pdfkit draws PNG and JPEG itself; SVG it cannot, so SVG is refused when
 * the logo is set (docs/invoice-pdf.md, "Logo"). Nothing here loads pdfkit: the document drawn on is the caller's.
 */
import type { PdfDocument } from './pdfkit';

export interface Logo {
  body: Uint8Array;
  contentType: LogoType;
}

export type LogoType = 'image/png' | 'image/jpeg';

/** The box a logo is fitted into (points), keeping its proportions. */
export const LOGO_BOX = { width: 150, height: 48 };

interface PdfImage {
  width: number;
  height: number;
}

/** Draws the logo at (x, y) within `maxWidth` × LOGO_BOX.height; returns the y below it. */
export function drawLogo(doc: PdfDocument, logo: Logo, x: number, y: number, maxWidth: number): number {
  // openImage is pdfkit's (it parses the image once); its types leave it out.
  const image = (doc as unknown as { openImage(src: Buffer): PdfImage }).openImage(Buffer.from(logo.body));
  const scale = Math.min(Math.min(maxWidth, LOGO_BOX.width) / image.width, LOGO_BOX.height / image.height);
  const height = image.height * scale;
  doc.image(image as unknown as Buffer, x, y, { width: image.width * scale, height });
  return y + height;
}
