/** npm run docs:api: writes docs/api.md, the API reference rendered from the OpenAPI document. */
import { writeFileSync } from 'node:fs';
import { renderApiReference } from '../lib/api-reference';
import { parseCommandLine } from './command-line';

parseCommandLine('usage: npm run docs:api\n  rewrites docs/api.md, the API reference rendered from the OpenAPI document (a test fails when it is stale)', {});

writeFileSync(new URL('../docs/api.md', import.meta.url), renderApiReference());
process.stdout.write('wrote docs/api.md\n');
