/**
 * The fonts a Factur-X embeds (PDF/A wants every font embedded): Roboto Regular and Bold (Apache 2.0), TrueType files
 * of the npm package @expo-google-fonts/roboto, read once. Where the package is not installed beside the code (the
 * Lambda bundle, whose pdfkit has no fontkit: lib/bundling.ts), there are none and the built-in Helvetica is used:
 * see docs/e-invoicing.md, "Not covered".
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface EmbeddedFonts {
  regular: Buffer;
  bold: Buffer;
}

let loaded: EmbeddedFonts | null | undefined;

export function embeddedFonts(): EmbeddedFonts | null {
  if (loaded !== undefined) return loaded;
  try {
    const require = createRequire(import.meta.url);
    const file = (path: string) => readFileSync(require.resolve(`@expo-google-fonts/roboto/${path}`));
    loaded = { regular: file('400Regular/Roboto_400Regular.ttf'), bold: file('700Bold/Roboto_700Bold.ttf') };
  } catch {
    loaded = null;
  }
  return loaded;
}
