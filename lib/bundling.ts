import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

/**
 * An ESM bundle that includes the AWS SDK still contains CommonJS code calling `require`,
 * which does not exist in ESM: without this banner the function crashes at import (DESIGN.md §12).
 */
export const createRequireBanner = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/** pdfkit's font-file reading, never used (the built-in fonts, or ready-made font objects for Factur-X): a stub. */
const fontkitStub = fileURLToPath(new URL('./stubs/fontkit.mjs', import.meta.url));

/**
 * How every Lambda is bundled: the stack's one build of all functions (lib/function-bundles.ts) and the benchmark's
 * bundles use these same options, so the measured bundles are the deployed ones.
 */
export const lambdaEsbuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  outExtension: { '.js': '.mjs' },
  minify: true,
  sourcemap: false,
  // Prefer the SDK's ESM builds so esbuild can tree-shake them.
  mainFields: ['module', 'main'],
  banner: { js: createRequireBanner },
  // Nothing external: the bundled, tree-shaken SDK loads faster than the runtime's full copy.
  external: [],
  alias: { fontkit: fontkitStub },
} satisfies BuildOptions;

/**
 * Files that travel beside every bundle instead of inside it, read at run time on first use: the translation
 * catalogs (shared/i18n/catalog.ts) and the PDF's fonts. Each lands at the path, relative to the bundle's index.mjs, that its reading
 * module uses relative to itself (`new URL('./messages/fr.json', import.meta.url)`), so the same code reads the
 * source folder under tsx and the copy in a Lambda.
 */
export const bundleAssets = [
  { from: 'shared/i18n/messages', to: 'messages' },
  // The PDF's embedded fonts (shared/domain/invoices/pdf/fonts.ts), made by `npm run generate`.
  { from: 'shared/domain/invoices/pdf/generated', to: 'generated' },
] as const;

/** Copies `bundleAssets` from the project into a bundle's folder. */
export function copyBundleAssets(projectRoot: string, outdir: string): void {
  for (const asset of bundleAssets) cpSync(join(projectRoot, asset.from), join(outdir, asset.to), { recursive: true });
}
