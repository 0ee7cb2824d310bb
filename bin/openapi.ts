/** npm run openapi: prints the OpenAPI 3.1 document generated from the route table. */
import { openApiDocument } from '../lib/openapi';
import { parseCommandLine } from './command-line';

parseCommandLine('usage: npm run --silent openapi [> openapi.json]\n  prints the OpenAPI 3.1 document of every route (also served at /openapi.json)', {});

process.stdout.write(`${JSON.stringify(openApiDocument(), null, 2)}\n`);
