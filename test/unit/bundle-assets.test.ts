import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { copyBundleAssets, lambdaEsbuildOptions } from '../../lib/bundling';
import { catalog } from '../../shared/i18n/catalog';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('assets beside the bundle (the translation catalogs)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bundle-assets-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a bundled function reads a language and the PDF fonts from the copies beside it, and carries neither inside', async () => {
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, [
      `import { translator } from ${JSON.stringify(join(projectRoot, 'shared/i18n/catalog.ts'))};`,
      `import { embeddedFonts } from ${JSON.stringify(join(projectRoot, 'shared/domain/invoices/pdf/fonts.ts'))};`,
      `export const text = translator('de')('doc.amount_due') + ' / ' + embeddedFonts().characters.has(0x142);`,
    ].join('\n'));
    const outdir = join(dir, 'out');
    await build({ ...lambdaEsbuildOptions, entryPoints: [{ in: entry, out: 'index' }], outdir, write: true, logLevel: 'error' });
    copyBundleAssets(projectRoot, outdir);

    const german = catalog('de')['doc.amount_due'];
    expect(readFileSync(join(outdir, 'index.mjs'), 'utf8')).not.toContain(german);
    const probe = `import(${JSON.stringify(pathToFileURL(join(outdir, 'index.mjs')).href)}).then((m) => process.stdout.write(m.text))`;
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' })).toBe(`${german} / true`); // ł is in the fonts
    const font = (JSON.parse(readFileSync(join(outdir, 'generated', 'roboto.json'), 'utf8')) as { regular: { deflated: string } }).regular.deflated;
    expect(readFileSync(join(outdir, 'index.mjs'), 'utf8')).not.toContain(font.slice(0, 64));
  });
});
