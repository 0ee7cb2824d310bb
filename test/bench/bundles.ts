import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { buildLazyPackages, copyBundleAssets, copyLazyPackages, lambdaEsbuildOptions, lazyModuleFile, lazyPackagesOf } from '../../lib/bundling';
import { median } from './stats';

export interface BundleTarget {
  name: string;
  /** Entry module, relative to the project root. */
  entry: string;
}

export interface BundleResult extends BundleTarget {
  file: string;
  bytes: number;
  /** The lazy packages beside it (lib/bundling.ts), read only on their first use: not part of its import. */
  lazyPackages: string[];
  lazyBytes: number;
  /** One import time per fresh process, in ms. */
  importMs: number[];
  medianImportMs: number;
}

/**
 * Bundles one entry with the stack's options (lib/bundling.ts) into `outRoot/<name>/index.mjs`, its assets and the
 * lazy packages it imports beside it, as each function's folder is.
 */
async function bundle(target: BundleTarget, projectRoot: string, outRoot: string, lazyRoot: string): Promise<{ file: string; lazyPackages: string[] }> {
  const outdir = join(outRoot, target.name);
  const { metafile } = await build({
    ...lambdaEsbuildOptions, entryPoints: [{ in: join(projectRoot, target.entry), out: 'index' }], outdir, metafile: true, write: true, logLevel: 'warning',
  });
  const lazyPackages = lazyPackagesOf(Object.values(metafile.outputs)[0]);
  copyBundleAssets(projectRoot, outdir);
  copyLazyPackages(lazyRoot, outdir, lazyPackages);
  return { file: join(outdir, 'index.mjs'), lazyPackages };
}

/**
 * Runs in a fresh node: times only the module's import (what a cold start adds on top of the runtime's own
 * boot), not node's startup. The URL comes through the environment to keep the script constant.
 */
const IMPORT_PROBE = `
const start = performance.now();
await import(process.env.BENCH_BUNDLE_URL);
process.stdout.write(String(performance.now() - start));
`;

function importOnce(file: string): number {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', IMPORT_PROBE], {
    encoding: 'utf8',
    timeout: 30_000,
    // A Lambda-like environment: a region, no local endpoint, and no SDK notice about Node 20 on this machine.
    env: {
      PATH: process.env.PATH ?? '',
      AWS_REGION: 'eu-west-1',
      TABLE_NAME: 'billing-bench',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      BENCH_BUNDLE_URL: pathToFileURL(file).href,
    },
  });
  const ms = Number(child.stdout);
  if (child.status !== 0 || !Number.isFinite(ms)) {
    throw new Error(`importing ${file} failed (exit ${child.status}):\n${child.stderr || child.error}`);
  }
  return ms;
}

/**
 * Bundles every target, then imports each in `runs` fresh processes, one at a time. Rounds go across all
 * bundles (A B C…, A B C…) so drift on the machine spreads evenly; a first unrecorded round warms the page cache.
 */
export async function measureBundles(targets: BundleTarget[], options: { projectRoot: string; outRoot: string; runs: number }): Promise<BundleResult[]> {
  const results: BundleResult[] = [];
  const lazyRoot = join(options.outRoot, '_lazy-packages');
  buildLazyPackages(options.projectRoot, lazyRoot);
  const lazySize = (name: string) => statSync(join(lazyRoot, lazyModuleFile(name))).size;
  for (const target of targets) {
    const { file, lazyPackages } = await bundle(target, options.projectRoot, options.outRoot, lazyRoot);
    const lazyBytes = lazyPackages.reduce((sum, name) => sum + lazySize(name), 0);
    results.push({ ...target, file, bytes: statSync(file).size, lazyPackages, lazyBytes, importMs: [], medianImportMs: 0 });
  }
  for (const result of results) importOnce(result.file);
  for (let round = 0; round < options.runs; round++) {
    for (const result of results) result.importMs.push(importOnce(result.file));
  }
  for (const result of results) result.medianImportMs = median(result.importMs);
  return results;
}
