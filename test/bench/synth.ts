import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TargetCheck } from './targets';

/** The target for `npx cdk synth` from a fresh checkout (an empty bundle cache), on a 2-core machine. */
export const SYNTH_LIMIT_SECONDS = 60;

export interface SynthRun {
  seconds: number;
  /** What lib/function-bundles.ts reported: the esbuild build's line, or the cache's. */
  bundling: string;
  /** How many times it reported: once per synth, or a function was bundled outside the one build. */
  bundlingLines: number;
}

export interface SynthResults {
  cold: SynthRun;
  warm: SynthRun;
}

/** One `npx cdk synth` as a user runs it (cdk.json's app), into `outdir`, with the bundle cache at `cache`. */
function synthOnce(projectRoot: string, outdir: string, cache: string): Promise<SynthRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    // No AWS credentials needed: an environment-agnostic stack looks nothing up.
    const child = spawn('npx', ['cdk', 'synth', '--quiet', '--output', outdir], {
      cwd: projectRoot,
      env: { ...process.env, BILLING_BUNDLE_CACHE: cache, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`npx cdk synth exited ${code}:\n${stderr.slice(-4000)}`));
      const lines = stderr.split('\n').filter((line) => line.startsWith('Function bundles: '));
      const bundling = lines.map((line) => line.slice('Function bundles: '.length)).join('; ') || 'no bundling line (was bundling skipped?)';
      resolve({ seconds: (performance.now() - started) / 1000, bundling, bundlingLines: lines.length });
    });
  });
}

/**
 * `npx cdk synth` twice: cold (an empty bundle cache and output folder, as a fresh checkout) and warm (the same
 * cache and output again, as the next synth or deploy), in scratch folders that leave the project's cache alone.
 */
export async function measureSynth(projectRoot: string): Promise<SynthResults> {
  const scratch = mkdtempSync(join(tmpdir(), 'billing-synth-'));
  try {
    const [outdir, cache] = [join(scratch, 'cdk.out'), join(scratch, 'bundles')];
    const cold = await synthOnce(projectRoot, outdir, cache);
    const warm = await synthOnce(projectRoot, outdir, cache);
    return { cold, warm };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function synthTargets(s: SynthResults): TargetCheck[] {
  return [{
    target: `\`npx cdk synth\` from a fresh checkout (no bundle cache) ≤ ${SYNTH_LIMIT_SECONDS} s, one esbuild build for every function`,
    measured: `${s.cold.seconds.toFixed(1)} s cold (${s.cold.bundling}); ${s.warm.seconds.toFixed(1)} s warm (${s.warm.bundling})`,
    pass: s.cold.seconds <= SYNTH_LIMIT_SECONDS && s.cold.bundlingLines === 1 && s.cold.bundling.includes('one esbuild build'),
  }];
}

export function synthReport(s: SynthResults): string {
  return [
    '## Synthesis',
    '',
    '`npx cdk synth` as a user runs it (the app in cdk.json, no AWS credentials), timed from start to exit: cold with an empty',
    'bundle cache and output folder (a fresh checkout), then warm with both kept (the next synth or deploy). Every function is',
    'bundled by one esbuild build with many entry points, kept while its inputs are unchanged (lib/function-bundles.ts).',
    '',
    '| run | seconds | bundling |',
    '|---|---|---|',
    `| cold | ${s.cold.seconds.toFixed(1)} | ${s.cold.bundling} |`,
    `| warm | ${s.warm.seconds.toFixed(1)} | ${s.warm.bundling} |`,
  ].join('\n');
}
