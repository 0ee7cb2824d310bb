/** npm run openapi: prints the OpenAPI 3.1 document generated from the route table. */
import { openApiDocument } from '../lib/openapi';

process.stdout.write(`${JSON.stringify(openApiDocument(), null, 2)}\n`);
