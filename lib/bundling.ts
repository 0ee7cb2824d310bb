import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type BuildOptions, type Metafile } from 'esbuild';

/**
 * An ESM bundle that includes the AWS SDK still contains CommonJS code calling `require`,
 * which does not exist in ESM: without this banner the function crashes at import (DESIGN.md §12).
 */
export const createRequireBanner = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/** pdfkit's font-file reading, never used (the built-in fonts, or ready-made font objects for Factur-X): a stub. */
const fontkitStub = fileURLToPath(new URL('./stubs/fontkit.mjs', import.meta.url));

/**
 * Packages the code imports only on first use (`await import('stripe')`, shared/domain/payments/stripe/client.ts;
 * `await import('@aws-sdk/client-s3')`, shared/storage/s3-file-store.ts; `await import('@aws-sdk/client-kms')`;
 * `await import('@aws-sdk/client-secrets-manager')`), each with what its module re-exports,
 * kept out of the functions' bundles: node parses a whole bundle at a cold start, lazy parts included, so a route
 * that may charge but mostly does not would pay for the SDK at every start. Each is bundled once as a module of its
 * own (`buildLazyPackages`) and copied beside each function whose code imports it (`copyLazyPackages`).
 */
const lazyPackageExports = {
  stripe: "export { default } from 'stripe';",
  '@aws-sdk/client-s3': "export { S3Client, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';",
  // Sealing and opening payment-provider secrets (shared/domain/payment-providers/secret-box.ts), only with Stripe
  // connected; the service's token signing key on AWS (shared/identity/service-tokens.ts), once per instance.
  // The MCP function's calls of the route functions (shared/mcp/route-invoker.ts): a tool call, never a tools/list.
  '@aws-sdk/client-lambda': "export { LambdaClient, InvokeCommand } from '@aws-sdk/client-lambda';",
  '@aws-sdk/client-kms': "export { KMSClient, EncryptCommand, DecryptCommand, GetPublicKeyCommand, SignCommand } from '@aws-sdk/client-kms';",
  // The pages' link-signing key (shared/pages/link-key.ts), read once per instance when a page link is made or
  // checked; the upstream sign-in's client secret (shared/domain/oauth/upstream.ts), once per instance.
  '@aws-sdk/client-secrets-manager': "export { SecretsManagerClient, GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';",
  // Project modules are lazy under a subpath import (package.json `imports`, which tsx and jest resolve to the
  // source): pdfkit, for the logo check of the entity routes, whose other requests never draw a PDF; the PDF's drawing
  // (pdfkit and its tables, the layout, Factur-X), for the functions that download or email a document, whose
  // errors (a 404) and e-invoice XML never draw one.
  '#lazy/pdf-logo': "export { drawable } from '#lazy/pdf-logo';",
  '#lazy/pdf-sheet': "export { renderSheet } from '#lazy/pdf-sheet';",
} as const;

/**
 * Where a lazy module's code sits beside a bundle's index.mjs: a package as `node_modules/<name>/index.mjs` (with a
 * package.json, as node resolves it); a project module (`#lazy/x`) as the file `lazy-x.mjs` next to index.mjs, named
 * by the bundle's own package.json `imports` (copyLazyPackages), so that the files it reads relative to itself (the
 * PDF's fonts, the catalogs: `bundleAssets`) are the bundle's own.
 */
export const lazyModuleFile = (name: string): string =>
  (isProjectModule(name) ? `lazy-${name.slice('#lazy/'.length)}.mjs` : join('node_modules', name, 'index.mjs'));

function isProjectModule(name: string): boolean {
  return name.startsWith('#lazy/');
}

export const lazyPackages = Object.keys(lazyPackageExports) as (keyof typeof lazyPackageExports)[];

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
  // Nothing else external: the bundled, tree-shaken AWS SDK loads faster than the runtime's full copy.
  external: [...lazyPackages],
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

/**
 * Bundles each lazy module alone, with the functions' options, at `outRoot/<lazyModuleFile>`: a package as node resolves one
 * (a package.json naming index.mjs). Returns the files read (relative to `projectRoot`).
 */
export function buildLazyPackages(projectRoot: string, outRoot: string): string[] {
  const inputs: string[] = [];
  for (const name of lazyPackages) {
    const outfile = join(outRoot, lazyModuleFile(name));
    mkdirSync(dirname(outfile), { recursive: true });
    const { metafile } = buildSync({
      ...lambdaEsbuildOptions,
      external: [],
      stdin: { contents: lazyPackageExports[name], resolveDir: projectRoot, loader: 'js' },
      outfile,
      absWorkingDir: projectRoot,
      metafile: true,
      write: true,
      logLevel: 'warning',
    });
    if (!isProjectModule(name)) writeFileSync(join(dirname(outfile), 'package.json'), JSON.stringify({ name, type: 'module', exports: './index.mjs' }));
    inputs.push(...Object.keys(metafile.inputs).filter((input) => !input.includes(':')));
  }
  return inputs;
}

/** The lazy packages one bundle's code imports, from its build's metafile (each once, however many modules import it). */
export const lazyPackagesOf = (output: Metafile['outputs'][string] | undefined): string[] => [
  ...new Set((output?.imports ?? []).filter((imported) => imported.external && (lazyPackages as readonly string[]).includes(imported.path)).map((imported) => imported.path)),
];

/**
 * Copies the lazy modules a bundle imports (built by `buildLazyPackages` into `builtRoot`) beside it, and names the
 * project modules among them in the bundle's package.json `imports`, as node resolves `#lazy/…` from index.mjs.
 */
export function copyLazyPackages(builtRoot: string, outdir: string, names: readonly string[]): void {
  for (const name of names) {
    // A package's folder (its package.json too), a project module's one file.
    const copied = isProjectModule(name) ? lazyModuleFile(name) : dirname(lazyModuleFile(name));
    cpSync(join(builtRoot, copied), join(outdir, copied), { recursive: true });
  }
  const projectModules = names.filter(isProjectModule);
  if (projectModules.length) {
    const imports = Object.fromEntries(projectModules.map((name) => [name, `./${lazyModuleFile(name)}`]));
    writeFileSync(join(outdir, 'package.json'), JSON.stringify({ type: 'module', imports }));
  }
}
