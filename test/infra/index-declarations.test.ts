/**
 * The indexes each function may query (lib/table-access.ts) against the indexes its code can reach: every handler
 * bundled and tree-shaken as for Lambda (SDK left out), then searched for the index names left in it. On AWS an
 * undeclared index is an AccessDenied that DynamoDB Local never shows; this test shows it first.
 */
import { build } from 'esbuild';
import { routes } from '../../functions/routes';
import { lambdaEsbuildOptions } from '../../lib/bundling';
import { emailFeedbackHandler } from '../../lib/email-feedback';
import { deliveryConsumer, streamHandler, usageStreamHandler } from '../../lib/event-pipeline';
import { dueWorker, scheduledHandler } from '../../lib/scheduler';
import { routeTableAccess, workerTableAccess, type TableAccess } from '../../lib/table-access';

interface Reach {
  /** Indexes named in a Query or Scan of their own (`IndexName: 'gsi2'`). */
  direct: string[];
  /** Whether the generic list reader (shared/db/pagination.ts `listPage`, gsi1 or a parent's gsi3) is in the bundle. */
  listPage: boolean;
  scans: boolean;
}

const functions: { id: string; entry: string; access: TableAccess }[] = [
  ...routes.map((r) => ({ id: r.id, entry: r.handler, access: routeTableAccess(r) })),
  { id: streamHandler.id, entry: streamHandler.entry, access: workerTableAccess[streamHandler.id] },
  { id: usageStreamHandler.id, entry: usageStreamHandler.entry, access: workerTableAccess[usageStreamHandler.id] },
  { id: deliveryConsumer.id, entry: deliveryConsumer.entry, access: workerTableAccess[deliveryConsumer.id] },
  { id: scheduledHandler.id, entry: scheduledHandler.entry, access: workerTableAccess[scheduledHandler.id] },
  { id: dueWorker.id, entry: dueWorker.entry, access: workerTableAccess[dueWorker.id] },
  { id: emailFeedbackHandler.id, entry: emailFeedbackHandler.entry, access: workerTableAccess[emailFeedbackHandler.id] },
];

const reach = new Map<string, Reach>();
beforeAll(async () => {
  const { outputFiles } = await build({
    ...lambdaEsbuildOptions,
    entryPoints: Object.fromEntries(functions.map((f) => [f.id, f.entry])),
    outdir: 'out',
    write: false,
    minify: false,
    // Only our code matters here, and leaving the SDK out keeps this fast.
    external: ['@aws-sdk/*', '@smithy/*', '@aws-lambda-powertools/*', 'pdfkit'],
  });
  for (const file of outputFiles) {
    const text = file.text;
    reach.set(file.path.replace(/^.*\//, '').replace(/\.mjs$/, ''), {
      direct: [...new Set([...text.matchAll(/IndexName:\s*"(gsi\d+)"/g)].map((m) => m[1]!))].sort(),
      listPage: /IndexName:\s*source\.index/.test(text),
      scans: /new ScanCommand\(/.test(text),
    });
  }
}, 120_000);

test.each(functions.map((f) => [f.id, f] as const))('%s: declares every index its code queries, and scans only what it declares', (id, { access }) => {
  const found = reach.get(id)!;
  expect(found).toBeDefined();
  const declared = [...access.indexes, ...(access.scannedIndexes ?? [])];
  for (const index of found.direct) expect([id, declared]).toEqual([id, expect.arrayContaining([index])]);
  // A list read by listPage reads gsi1, or gsi3 for one parent's children: the route must declare which.
  if (found.listPage) expect([id, access.indexes.some((i) => i === 'gsi1' || i === 'gsi3')]).toEqual([id, true]);
  expect([id, found.scans]).toEqual([id, (access.scannedIndexes ?? []).length > 0]);
});
