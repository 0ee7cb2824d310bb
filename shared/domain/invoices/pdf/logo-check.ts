/**
 * The logo check of the entity routes (shared/domain/invoicing-entities/logo.ts): a module of its own, loaded on
 * first use (#lazy/pdf-logo, lib/bundling.ts), as it starts pdfkit.
 */
import { drawLogo, LOGO_BOX, type Logo } from './logo';
import { createDocument, toBuffer } from './pdfkit';

/**
 * Whether pdfkit draws these bytes: a whole document is made with them, so an image it would choke on later (a
 * truncated PNG, an interlaced one, a CMYK JPEG it misreads) is refused when the logo is set, never at rendering.
 */
export async function drawable(logo: Logo): Promise<boolean> {
  try {
    const doc = createDocument({ size: 'A6' });
    drawLogo(doc, logo, 10, 10, LOGO_BOX.width);
    await toBuffer(doc);
    return true;
  } catch {
    return false;
  }
}
