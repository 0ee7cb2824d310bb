import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AssetHashType, DockerImage, Stack } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { buildSync, version as esbuildVersion } from 'esbuild';
import type { IConstruct } from 'constructs';
import { buildLazyPackages, bundleAssets, copyBundleAssets, copyLazyPackages, lambdaEsbuildOptions, lazyModuleFile, lazyPackagesOf } from './bundling';

/** Where built bundle sets are kept between syntheses; `BILLING_BUNDLE_CACHE` moves it (the benchmark's cold run). */
export const bundleCacheRoot = (projectRoot: string): string => process.env.BILLING_BUNDLE_CACHE ?? join(projectRoot, 'node_modules', '.cache', 'lambda-bundles');

/** Bundle sets kept in the cache: the current one and a few before it (switching branches back and forth). */
const keptSets = 3;
const manifestFile = 'inputs.json';
/** Where a set keeps the lazy packages it copies into the folders that import them (not itself a function). */
const lazyPackagesFolder = '_lazy-packages';
/** A half-built set older than this was left by a killed run (a younger one may be another synth's, in progress). */
const abandonedAfterMs = 15 * 60_000;

export interface Bundle {
  /** The folder holding the entry's index.mjs and the assets beside it. */
  folder: string;
  /** A hash of the folder's contents: the function's asset hash. */
  hash: string;
}

export interface BuiltBundles {
  /** Entry (relative to the project root) → its bundle. */
  bundles: ReadonlyMap<string, Bundle>;
  /** False when the cache already held these entries built from the same inputs. */
  rebuilt: boolean;
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** `functions/customers/get.ts` → `functions__customers__get`: one flat folder per entry, none inside another's. */
const folderName = (entry: string): string => entry.replace(/\.[cm]?[jt]s$/, '').replaceAll('/', '__');

/** Every file under the asset folders, relative to the project root: they are inputs of the set too. */
function assetFiles(projectRoot: string): string[] {
  return bundleAssets.flatMap((asset) =>
    (readdirSync(join(projectRoot, asset.from), { recursive: true, encoding: 'utf8' }))
      .map((file) => join(asset.from, file))
      .filter((file) => statSync(join(projectRoot, file)).isFile()),
  );
}

/** One hash over the names and contents of the files (relative to the project root). */
const hashFiles = (projectRoot: string, files: readonly string[]): string =>
  sha256(files.map((file) => `${file}\0${existsSync(join(projectRoot, file)) ? sha256(readFileSync(join(projectRoot, file))) : 'missing'}`).join('\n'));

/**
 * Bundles every entry in ONE esbuild build with many entry points (lib/bundling.ts's options, no code splitting:
 * each bundle stands alone as before), and copies the assets beside each index.mjs. The set is kept under
 * `cacheRoot`, in a folder named by the options, the entries, esbuild's version and the lockfile; it is used again
 * while every file the build read (esbuild's metafile) and every asset has the content it had, else built anew.
 */
export function bundleEntries({ projectRoot, entries, cacheRoot }: { projectRoot: string; entries: Iterable<string>; cacheRoot: string }): BuiltBundles {
  const sorted = [...new Set(entries)].sort();
  const names = new Map(sorted.map((entry) => [entry, folderName(entry)]));
  if (new Set(names.values()).size !== names.size) throw new Error(`bundleEntries: two entries would share a folder: ${sorted.join(', ')}`);
  const lockfile = join(projectRoot, 'package-lock.json');
  const key = sha256(JSON.stringify({
    esbuild: esbuildVersion, options: lambdaEsbuildOptions, assets: bundleAssets, entries: sorted,
    lockfile: existsSync(lockfile) ? sha256(readFileSync(lockfile)) : null,
  })).slice(0, 20);
  const dir = join(cacheRoot, key);
  const bundlesOf = (hashes: Record<string, string>) => new Map(sorted.map((entry) => [entry, { folder: join(dir, names.get(entry)!), hash: hashes[entry]! }]));

  const manifestPath = join(dir, manifestFile);
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { files: string[]; hash: string; bundles: Record<string, string> };
    if (hashFiles(projectRoot, manifest.files) === manifest.hash) return { bundles: bundlesOf(manifest.bundles), rebuilt: false };
  }

  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  // Sub-millisecond, as file times are: a file written just before the build is not taken for one written during it.
  const startedAt = performance.timeOrigin + performance.now();
  const { metafile } = buildSync({
    ...lambdaEsbuildOptions,
    entryPoints: sorted.map((entry) => ({ in: join(projectRoot, entry), out: `${names.get(entry)}/index` })),
    outdir: building,
    absWorkingDir: projectRoot,
    metafile: true,
    write: true,
    logLevel: 'warning',
  });
  // Output paths in the metafile are relative to absWorkingDir: keyed here by folder name.
  const outputOf = new Map(Object.entries(metafile.outputs).map(([file, output]) => [relative(building, join(projectRoot, file)), output]));
  const lazyOf = (name: string) => lazyPackagesOf(outputOf.get(join(name, 'index.mjs')));
  const lazyRoot = join(building, lazyPackagesFolder);
  const lazyInputs = buildLazyPackages(projectRoot, lazyRoot);
  for (const name of names.values()) {
    copyBundleAssets(projectRoot, join(building, name));
    copyLazyPackages(lazyRoot, join(building, name), lazyOf(name));
  }
  // Metafile inputs are relative to absWorkingDir; those in a namespace (`<define:…>`) are no files.
  const assets = assetFiles(projectRoot);
  const files = [...new Set([...Object.keys(metafile.inputs).filter((input) => !input.includes(':')), ...lazyInputs, ...assets])].sort();
  // A file saved while esbuild ran may differ from what it read: then this set is used once and never again.
  const changedMeanwhile = files.some((file) => existsSync(join(projectRoot, file)) && statSync(join(projectRoot, file)).mtimeMs > startedAt);
  // A bundle's folder is its index.mjs, the assets (the same in every folder) and the lazy packages it imports.
  const assetsHash = hashFiles(projectRoot, assets);
  const lazyHash = (name: string) => lazyOf(name).map((lazy) => `${lazy}:${sha256(readFileSync(join(lazyRoot, lazyModuleFile(lazy))))}`).join(',');
  const hashes = Object.fromEntries(sorted.map((entry) => {
    const name = names.get(entry)!;
    return [entry, sha256(`${sha256(readFileSync(join(building, name, 'index.mjs')))}\n${assetsHash}\n${lazyHash(name)}`)];
  }));
  writeFileSync(join(building, manifestFile), JSON.stringify({ files, hash: changedMeanwhile ? 'changed while building' : hashFiles(projectRoot, files), bundles: hashes }));
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
  pruneCache(cacheRoot, key);
  return { bundles: bundlesOf(hashes), rebuilt: true };
}

/** Removes all but the `keptSets` most recently built sets, and half-built ones a killed run left. */
function pruneCache(cacheRoot: string, current: string): void {
  const all = readdirSync(cacheRoot).filter((name) => name !== current).map((name) => ({ name, built: statSync(join(cacheRoot, name)).mtimeMs }));
  const abandoned = all.filter((set) => set.name.includes('.building-') && Date.now() - set.built > abandonedAfterMs);
  const older = all.filter((set) => !set.name.includes('.building-')).sort((a, b) => b.built - a.built).slice(keptSets - 1);
  for (const set of [...abandoned, ...older]) rmSync(join(cacheRoot, set.name), { recursive: true, force: true });
}

const perApp = new WeakMap<IConstruct, FunctionBundles>();

/** The stack that CDK's bundling selection names: a nested stack's top-level parent. */
const topLevelStack = (scope: IConstruct): Stack => {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack;
};

/**
 * The bundles of one CDK app: the stack declares every function's entry first (BillingStack), and the first
 * function to need its code builds them all at once (bundleEntries). When CDK skips bundling (context
 * `aws:cdk:bundling-stacks: []`, as the infra tests set), nothing is built: CDK stands a placeholder in for the code.
 */
export class FunctionBundles {
  /** How many esbuild builds this app ran (0 when the cache held the set): one, whatever the number of functions. */
  builds = 0;
  private readonly entries = new Set<string>();
  private built?: ReadonlyMap<string, Bundle>;

  private constructor(private readonly projectRoot: string) {}

  static of(scope: IConstruct, projectRoot: string): FunctionBundles {
    const root = scope.node.root;
    const bundles = perApp.get(root) ?? new FunctionBundles(projectRoot);
    if (bundles.projectRoot !== projectRoot) throw new Error(`FunctionBundles: one project root per app (${bundles.projectRoot}, not ${projectRoot})`);
    perApp.set(root, bundles);
    return bundles;
  }

  /** Entries (relative to the project root) to build together; declared before the functions are made. */
  declare(entries: Iterable<string>): void {
    for (const entry of entries) this.entries.add(entry);
  }

  /**
   * A function's code: its folder of the one build, as an asset named by its contents (an unchanged bundle is not
   * copied again). Whether to bundle is the top-level stack's choice: CDK asks each nested stack by its own path,
   * which `cdk deploy --exclusively BillingApi` does not match, and would ship the project folder as the code.
   * An entry nobody declared still works, at the price of a second build of the whole set (declare it beside the
   * others in BillingStack).
   */
  code(scope: IConstruct, entry: string): Code {
    if (!topLevelStack(scope).bundlingRequired) return this.placeholder(entry);
    const { folder, hash } = this.bundleOf(entry);
    return Code.fromAsset(folder, { assetHash: hash, assetHashType: AssetHashType.CUSTOM });
  }

  /** What CDK puts in place of code it does not bundle: its skipped bundling, which never runs the command. */
  private placeholder(entry: string): Code {
    return Code.fromAsset(this.projectRoot, {
      assetHashType: AssetHashType.OUTPUT,
      bundling: {
        image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
        // The entry keeps CDK's in-process asset cache from giving every placeholder the same hash.
        command: ['bundle', entry],
        local: {
          // Reached only if CDK bundles a nested stack whose parent it skips (a pattern naming the nested stack).
          tryBundle: (outputDir: string) => {
            cpSync(this.bundleOf(entry).folder, outputDir, { recursive: true });
            return true;
          },
        },
      },
    });
  }

  private bundleOf(entry: string): Bundle {
    if (!this.built?.has(entry)) {
      this.entries.add(entry);
      const started = performance.now();
      const cacheRoot = bundleCacheRoot(this.projectRoot);
      const { bundles, rebuilt } = bundleEntries({ projectRoot: this.projectRoot, entries: this.entries, cacheRoot });
      if (rebuilt) this.builds += 1;
      this.built = bundles;
      // One line for the whole set (the benchmark reads it).
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stderr.write(`Function bundles: ${bundles.size} functions ${rebuilt ? `built in one esbuild build in ${seconds} s` : `taken from the cache in ${seconds} s`} (${cacheRoot})\n`);
    }
    return this.built.get(entry)!;
  }
}
