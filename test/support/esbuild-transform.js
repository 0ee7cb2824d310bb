/**
 * Jest transformer: TypeScript → ES modules with esbuild (already the project's bundler), so tests run the
 * same syntax support as the Lambda bundles and need no other native compiler.
 */
import { createHash } from 'node:crypto';
import { transformSync } from 'esbuild';

export default {
  canInstrument: false,
  getCacheKey(source, path, options) {
    return createHash('sha1').update(source).update(path).update(String(options.supportsStaticESM)).update('esbuild-transform-3').digest('hex');
  },
  // Jest asks for CommonJS where it cannot load ES modules (global setup, teardown).
  process(source, path, options) {
    const esm = options.supportsStaticESM;
    const { code, map } = transformSync(source, {
      loader: 'ts',
      format: esm ? 'esm' : 'cjs',
      target: 'node20',
      sourcemap: 'external',
      sourcefile: path,
      // CommonJS has no import.meta: give modules that locate files by it their own URL.
      ...(!esm && { define: { 'import.meta.url': '__filename_url' }, banner: "const __filename_url = require('node:url').pathToFileURL(__filename).href;" }),
    });
    return { code, map };
  },
};
