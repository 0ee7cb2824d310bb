import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { App, AssetStaging, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BillingFunction } from '../../lib/billing-function';
import { bundleEntries, FunctionBundles } from '../../lib/function-bundles';
import { catalog } from '../../shared/i18n/catalog';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Real bundling, so slower than most unit tests: the entries are small, the esbuild build is real. */
jest.setTimeout(120_000);

let sources: string;
let cacheRoot: string;
let outdir: string;
/** The entries, relative to the project root (the stack's entries are). */
const entries = () => ['a.ts', 'b.ts'].map((file) => relative(projectRoot, join(sources, file)));

beforeAll(() => {
  // Inside the project (test-output/ is ignored by git): entries are project-relative, and the build reads the project's modules.
  mkdirSync(join(projectRoot, 'test-output'), { recursive: true });
  sources = mkdtempSync(join(projectRoot, 'test-output', 'function-bundles-'));
  cacheRoot = mkdtempSync(join(tmpdir(), 'bundle-cache-'));
  outdir = mkdtempSync(join(tmpdir(), 'bundle-cdk-out-'));
  const catalogModule = JSON.stringify(join(projectRoot, 'shared/i18n/catalog.ts'));
  writeFileSync(join(sources, 'dep.ts'), "export const word = 'first';\n");
  writeFileSync(join(sources, 'a.ts'), `import { translator } from ${catalogModule};\nimport { word } from './dep';\nexport const handler = async () => translator('de')('doc.amount_due') + ' ' + word;\n`);
  writeFileSync(join(sources, 'b.ts'), "import { word } from './dep';\nexport const handler = async () => word.toUpperCase();\n");
  // A real 1×1 PNG: the logo check draws it with pdfkit, loaded from its own module.
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
  writeFileSync(join(sources, 'logo-check.ts'), `export const handler = async () => { const { drawable } = await import('#lazy/pdf-logo'); return String(await drawable({ body: Buffer.from('${png}', 'base64'), contentType: 'image/png' })); };\n`);
  // A Polish invoice embeds Roboto: the drawing module, loaded on first use, reads the font beside the bundle.
  const render = JSON.stringify(join(projectRoot, 'shared/domain/invoices/pdf/render.ts'));
  const fixtures = JSON.stringify(join(projectRoot, 'test/support/invoice-fixtures.ts'));
  writeFileSync(join(sources, 'invoice-pdf.ts'), `import { renderInvoicePdf } from ${render};\nimport { invoiceFixture } from ${fixtures};\nexport const handler = async () => (await renderInvoicePdf(invoiceFixture(), { brandColor: null, logo: null }, { language: 'pl' })).toString('latin1');\n`);
  writeFileSync(join(sources, 'charges.ts'), "export const handler = async () => { const { default: Stripe } = await import('stripe'); return typeof new Stripe('sk_test_1').paymentIntents.create; };\n");
});
afterAll(() => {
  for (const dir of [sources, cacheRoot, outdir]) rmSync(dir, { recursive: true, force: true });
});

/** The two entries importing lazy project modules, built as one set (the cache keeps only a few sets): file → folder. */
const lazyModuleBundles = (): Map<string, string> => {
  const files = ['logo-check.ts', 'invoice-pdf.ts'];
  const { bundles } = bundleEntries({ projectRoot, entries: files.map((file) => relative(projectRoot, join(sources, file))), cacheRoot });
  return new Map(files.map((file) => [file, bundles.get(relative(projectRoot, join(sources, file)))!.folder]));
};

/** Runs a bundle's handler in a fresh node, as Lambda would load index.mjs. */
const runHandler = (folder: string): string => {
  const probe = `import(${JSON.stringify(pathToFileURL(join(folder, 'index.mjs')).href)}).then(async (m) => process.stdout.write(await m.handler()))`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' });
};

describe('bundleEntries: every entry in one build, cached by content', () => {
  test('each entry gets a folder with its index.mjs and the assets beside it, which runs', () => {
    const { bundles, rebuilt } = bundleEntries({ projectRoot, entries: entries(), cacheRoot });
    expect(rebuilt).toBe(true);
    const [a, b] = entries().map((entry) => bundles.get(entry)!.folder);
    expect(readdirSync(a!).sort()).toEqual(['generated', 'index.mjs', 'messages']);
    expect(runHandler(a!)).toBe(`${catalog('de')['doc.amount_due']} first`);
    expect(runHandler(b!)).toBe('FIRST');
  });

  test('a lazily imported package (the Stripe SDK) is its own module beside the functions that import it, and only those', () => {
    const lazyEntries = ['b.ts', 'charges.ts'].map((file) => relative(projectRoot, join(sources, file)));
    const { bundles } = bundleEntries({ projectRoot, entries: lazyEntries, cacheRoot });
    const [plain, charges] = lazyEntries.map((entry) => bundles.get(entry)!.folder);
    expect(readdirSync(plain!)).not.toContain('node_modules');
    expect(readdirSync(join(charges!, 'node_modules'))).toEqual(['stripe']);
    // The folder lies outside the project (a temporary cache): the SDK can only come from its own copy.
    expect(runHandler(charges!)).toBe('function');
    expect(readFileSync(join(charges!, 'index.mjs'), 'utf8')).not.toContain('api.stripe.com');
  });

  test('a lazily imported project module (#lazy/…, package.json `imports`) is a file beside index.mjs (reading the same assets), named by the bundle\'s own package.json, and runs', () => {
    const folder = lazyModuleBundles().get('logo-check.ts')!;
    expect(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).imports).toEqual({ '#lazy/pdf-logo': './lazy-pdf-logo.mjs' });
    expect(readFileSync(join(folder, 'index.mjs'), 'utf8')).not.toContain('registerStdFonts');
    // Outside the project, so the project's own `imports` (which name the source) cannot be what resolves it.
    expect(runHandler(folder)).toBe('true');
  });

  test('the PDF\'s drawing is such a module: out of the bundle, and what it reads relative to itself (the embedded font) is the bundle\'s own', () => {
    const folder = lazyModuleBundles().get('invoice-pdf.ts')!;
    expect(readdirSync(folder).sort()).toEqual(['generated', 'index.mjs', 'lazy-pdf-sheet.mjs', 'messages', 'package.json']);
    expect(readFileSync(join(folder, 'index.mjs'), 'utf8')).not.toContain('registerStdFonts');
    const pdf = runHandler(folder);
    expect(pdf.startsWith('%PDF-')).toBe(true);
    expect(pdf).toContain('/FontFile2');
  });

  test('unchanged inputs: the cached set, not a new build; a changed input: built again', () => {
    expect(bundleEntries({ projectRoot, entries: entries(), cacheRoot }).rebuilt).toBe(false);
    writeFileSync(join(sources, 'dep.ts'), "export const word = 'second';\n");
    const { bundles, rebuilt } = bundleEntries({ projectRoot, entries: entries(), cacheRoot });
    expect(rebuilt).toBe(true);
    expect(runHandler(bundles.get(entries()[1]!)!.folder)).toBe('SECOND');
    expect(bundleEntries({ projectRoot, entries: entries(), cacheRoot }).rebuilt).toBe(false);
  });
});

describe('FunctionBundles: what the stack uses', () => {
  /** A fresh app, as each `cdk synth` is a fresh process (CDK keeps staged assets in a per-process cache). */
  const synth = (context: Record<string, unknown> = {}) => {
    AssetStaging.clearAssetHashCache();
    const app = new App({ outdir, context });
    const stack = new Stack(app, 'Bundled');
    // As the route functions are: in a nested stack.
    const nested = new NestedStack(stack, 'Routes');
    FunctionBundles.of(stack, projectRoot).declare(entries());
    const functions = entries().map((entry, i) => new BillingFunction(i === 0 ? stack : nested, `F${i}`, {
      entry, projectRoot, description: entry, tag: ['test', entry], operations: { logRetention: RetentionDays.ONE_DAY },
    }));
    return { app, stack, functions, bundles: FunctionBundles.of(stack, projectRoot) };
  };

  beforeAll(() => writeFileSync(join(sources, 'dep.ts'), "export const word = 'third';\n"));
  beforeEach(() => {
    process.env.BILLING_BUNDLE_CACHE = mkdtempSync(join(tmpdir(), 'bundle-cache-'));
  });
  afterEach(() => {
    rmSync(process.env.BILLING_BUNDLE_CACHE!, { recursive: true, force: true });
    delete process.env.BILLING_BUNDLE_CACHE;
  });

  test('one esbuild build for all the functions; each function\'s asset is its own bundle on Node 22, arm64, index.handler', () => {
    const { functions, bundles } = synth();
    expect(bundles.builds).toBe(1);
    for (const f of functions) {
      Template.fromStack(Stack.of(f)).hasResourceProperties('AWS::Lambda::Function', { Handler: 'index.handler', Runtime: 'nodejs22.x', Architectures: ['arm64'] });
    }
    const assetFolders = functions.map((f) => f.fn.node.findAll().find((c): c is AssetStaging => c instanceof AssetStaging)!.absoluteStagedPath);
    expect(assetFolders.map(runHandler)).toEqual([`${catalog('de')['doc.amount_due']} third`, 'THIRD']);
  });

  test('`cdk deploy --exclusively Bundled` (a pattern naming only the top-level stack) still bundles its nested stack\'s functions', () => {
    const { app, functions, bundles } = synth({ 'aws:cdk:bundling-stacks': ['Bundled'] });
    app.synth();
    expect(bundles.builds).toBe(1);
    const assetFolders = functions.map((f) => f.fn.node.findAll().find((c): c is AssetStaging => c instanceof AssetStaging)!.absoluteStagedPath);
    expect(assetFolders.map(runHandler)).toEqual([`${catalog('de')['doc.amount_due']} third`, 'THIRD']);
  });

  test('a second synthesis of the same tree builds nothing; with bundling skipped nothing is built either', () => {
    expect(synth().bundles.builds).toBe(1);
    expect(synth().bundles.builds).toBe(0);
    rmSync(process.env.BILLING_BUNDLE_CACHE!, { recursive: true, force: true });
    expect(synth({ 'aws:cdk:bundling-stacks': [] }).bundles.builds).toBe(0);
    expect(existsSync(process.env.BILLING_BUNDLE_CACHE!)).toBe(false);
  });
});
