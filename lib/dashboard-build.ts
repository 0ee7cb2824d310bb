import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
export const dashboardSources = join(projectRoot, 'dashboard');

/** Where `npm run dashboard:build` and `npm start` put the built dashboard (git-ignored). */
export const defaultDashboardOut = join(projectRoot, '.local', 'dashboard');

/** The files of a build: the page, one script, one stylesheet (no inline script or style: the CSP allows none). */
export const DASHBOARD_FILES = ['index.html', 'app.js', 'app.css'] as const;

/**
 * Builds the operators' dashboard (docs/dashboard.md) into `outDir`: `dashboard/src/main.ts` bundled and minified
 * with its catalogs and uPlot, the stylesheet, and the page. Synchronous: the CDK stack builds it at synth.
 */
export function buildDashboard(outDir: string = defaultDashboardOut): string {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  buildSync({
    entryPoints: { app: join(dashboardSources, 'src', 'main.ts'), 'app-styles': join(dashboardSources, 'src', 'styles.css') },
    outdir: outDir,
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    platform: 'browser',
    legalComments: 'none',
    logLevel: 'error',
    entryNames: '[name]',
  });
  // esbuild names a CSS entry after its own name; the page links app.css.
  copyFileSync(join(outDir, 'app-styles.css'), join(outDir, 'app.css'));
  rmSync(join(outDir, 'app-styles.css'));
  rmSync(join(outDir, 'app-styles.js'), { force: true });
  copyFileSync(join(dashboardSources, 'index.html'), join(outDir, 'index.html'));
  return outDir;
}
