/**
 * npm run bench: latency beside the DynamoDB floor, DynamoDB calls per request, the rate limiter's cost on a GET, a credit top-up beside its
 * TransactWriteItems and its full sequence, invoice creation (10 and 100 lines) and validation beside theirs, the
 * a billing day (10,000 renewals due at once with 1, 4 and 16 workers, beside floors), partition heat (one workspace's
 * workloads projected on AWS), webhook
 * message listing as the log grows, the time from a change to its listed message, a product's price configurations listed as they grow (and
 * what skipping costs), how long a revoked API key keeps working, a charge through the Stripe stand-in beside the sandbox, bundle sizes and import times, the time `npx cdk synth` takes, in one run against one
 * in-memory DynamoDB Local. Writes docs/benchmarks.md. A measurement, not a test: it exits
 * 0 when a target fails, and says FAIL.
 *
 * `npm run bench -- --only limiter,bundles` measures only the parts named (see PARTS), prints their tables and
 * targets, and leaves docs/benchmarks.md alone: a partial run never replaces the whole report.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, usageError } from '../../bin/command-line';
import { routes } from '../../functions/routes';
import { ensureTable } from '../../lib/local/create-table';
import { startDynamoLocal, type RunningDynamo } from '../../lib/local/dynamodb-local';
import { generateKeys, signToken } from '../../lib/local/jwt';
import { measureBundles } from './bundles';
import {
  bundleTable, changeReading, changeTable, noisyReading, getReading, invoiceReadTable, invoiceReading, invoiceSendsTable, invoiceTable, latencyTable, limiterReading, limiterTable, listReading,
  markdownReport, messageListTable, overheadTable, priceCostTable, priceListReading, priceListTable, priceSeedLine, seedLine, targetTable, topupReadTable, topupReading, topupTable,
} from './report';
import { bundleChecks, changeCheck, checkTargets, limiterCheck, type TargetCheck } from './targets';
import { usageReport, usageTargets } from './usage-report';
import { billingReport, billingTargets } from './billing-report';
import { credentialReport, credentialTargets } from './credential-report';
import { mcpReport, mcpTargets } from './mcp-report';
import { stripeReport, stripeTargets } from './stripe-report';
import { emailReport, emailTargets } from './email-report';
import { revocationReport, revocationTargets } from './revocation-report';
import { heatReport, heatTargets } from './heat-report';
import { analyticsReport, analyticsTargets } from './analytics-report';
import { USAGE_BENCH } from './usage-settings';
import { measureSynth, synthReport, synthTargets } from './synth';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The handlers run in this process: their request log lines (one per request, tens of thousands here) would bury the
// report. Set POWERTOOLS_LOG_LEVEL=INFO to measure with logging on.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
const COUNTS = { warmup: 50, measured: 300 };
const DYNAMO_WARMUP = 2000;
/** Rounds of the nine top-up variants (three writes of the route, four of floors, two reads): fewer than COUNTS, each round is ~0.2 s. */
const TOPUP_COUNTS = { warmup: 30, measured: 200 };
/**
 * Rounds of the eight invoice-creation variants (a 100-line invoice and its floors write ~60 KB items: a round is
 * ~0.1 s) and of the three validation variants (each on a fresh draft created beforehand: 3 drafts a round).
 */
const INVOICE_COUNTS = { create: { warmup: 20, measured: 100 }, validate: { warmup: 20, measured: 100 } };
/**
 * A billing day (issue 18): 10,000 renewals due at once, billed with 1, 4 and 16 workers on one invoicing entity and
 * 16 workers on 16 entities, each on a fresh workspace, and the renewals of each floor (the run's DynamoDB work: one
 * batch's sequence for as many renewals, as many in flight as the queue runs batches at once, one per entity and at most
 * one per worker, and the run's scan), going round a pool of subscriptions seeded for it.
 */
const BILLING = {
  subscriptions: 10_000,
  runs: [{ workers: 1, entities: 1 }, { workers: 4, entities: 1 }, { workers: 16, entities: 1 }, { workers: 16, entities: 16 }],
  seedConcurrency: 4,
  floorCounts: { warmup: 2_000, measured: 10_000, pool: 3_000 },
};
// The billing part on fewer renewals (`BENCH_BILLING_SUBSCRIPTIONS=1000 BENCH_BILLING_FLOOR_ROUNDS=500 npm run bench -- --only billing`): a quick try, or a loaded machine.
if (process.env.BENCH_BILLING_SUBSCRIPTIONS) Object.assign(BILLING, { subscriptions: Number(process.env.BENCH_BILLING_SUBSCRIPTIONS), floorCounts: { warmup: 100, measured: Number(process.env.BENCH_BILLING_FLOOR_ROUNDS ?? process.env.BENCH_BILLING_SUBSCRIPTIONS), pool: 1_000 } });
// Some runs only, as workers×entities (`BENCH_BILLING_RUNS=16x1,16x16`).
if (process.env.BENCH_BILLING_RUNS) {
  Object.assign(BILLING, { runs: process.env.BENCH_BILLING_RUNS.split(',').map((run) => ({ workers: Number(run.split('x')[0]), entities: Number(run.split('x')[1] ?? 1) })) });
}
/**
 * Partition heat (issue 31): the workloads' units (per unit of work the figures do not depend on them: see
 * heat-scenarios.ts) and the scheduler tick's 100,000 scheduled subscriptions, which it reads whatever is due.
 */
const HEAT = {
  entities: 16, invoicesPerEntity: 20, renewalsPerEntity: 100, events: 10_000, spreadEvents: 3_000, eventBatch: 1_000, customers: 1_000,
  tick: { scheduled: 100_000, due: 100 }, seedConcurrency: 4,
};
// `BENCH_HEAT_EVENTS=100000 npm run bench -- --only heat`: the events workloads at the issue's full 100,000.
if (process.env.BENCH_HEAT_EVENTS) Object.assign(HEAT, { events: Number(process.env.BENCH_HEAT_EVENTS), spreadEvents: Number(process.env.BENCH_HEAT_EVENTS) });
// A quick try on fewer scheduled subscriptions (`BENCH_HEAT_SCHEDULED=5000`): the tick's reads shrink with them.
if (process.env.BENCH_HEAT_SCHEDULED) HEAT.tick.scheduled = Number(process.env.BENCH_HEAT_SCHEDULED);
const IMPORT_RUNS = 15;
/** Rounds of a charge through Stripe, through the sandbox, and the stand-in's PaymentIntent create (three a round). */
const STRIPE_COUNTS = { warmup: 30, measured: 200 };
/** Stripe's part needs Stripe's fixtures (the stand-in answers with them): skipped, with a notice, without. */
const stripeMeasurable = async () => {
  const { stripeFixturesAvailable, STRIPE_FIXTURES_PATH } = await import('../support/stripe/fixtures');
  if (!stripeFixturesAvailable) console.error(`Stripe charge: skipped, Stripe's fixtures are not at ${STRIPE_FIXTURES_PATH} (STRIPE_FIXTURES_PATH).`);
  return stripeFixturesAvailable;
};
/** Rounds of validations with emails on and off (two requests a round, each on its own draft, each followed by the stream's work). */
const EMAIL_COUNTS = { warmup: 20, measured: 100 };
/** Rounds of the three MCP tools and their routes (six requests a round). */
const MCP_COUNTS = { warmup: 20, measured: 100 };
/** API keys revoked, each after a different while in use (up to 9 s, then up to 9 s until refused), and epoch reads timed. */
const REVOCATION = { samples: 10, epochCounts: { warmup: 50, measured: 300 } };
/** Webhook messages in the two workspaces whose first list page is compared. */
const MESSAGE_SIZES = { small: 1_000, large: 50_000 };
const LIST_COUNTS = { warmup: 50, measured: 300 };
const SEED_CONCURRENCY = 4;
const CHANGE = { samples: 20, warmup: 2, pollIntervalMs: 20, limitMs: 10_000 };
/** The noisy row: another workspace ingests 10,000 events as fast as it can; samples until its usage is applied. */
const NOISE = { events: 10_000, batchSize: 1_000, concurrency: 1, maxSamples: 200 };
/** Price configurations on the measured product in the two workspaces; the large one also holds other products'. */
const PRICE_SIZES = { small: 100, large: 20_000 };
const PRICE_OTHERS = { products: 2, each: 1_000 };
const PRICE_SKIP = 5_000;
const PRICE_SKIP_COUNTS = { warmup: 10, measured: 60 };
const BASELINE = { name: 'empty handler (baseline)', entry: 'test/bench/empty-handler.ts' };

process.env.TABLE_NAME = 'billing-bench';
process.env.AWS_REGION = 'local';
// The per-workspace rate limiter would refuse most of these requests: off, except where its cost is measured.
process.env.RATE_LIMIT_ENABLED = 'false';
// Lambda runs Node 22; the SDK's notice about Node 20 on this machine is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/** Analytics reads (issue 33): a year of a workspace of 1,000 invoices beside one of 100,000. */
const ANALYTICS = { sizes: [1_000, 100_000], counts: { warmup: 20, measured: 200 } };

/** The parts `--only` can select: each is also part of the full run, with the same counts. */
const PARTS = ['limiter', 'bundles', 'changes', 'usage', 'credentials', 'revocation', 'mcp', 'emails', 'billing', 'heat', 'synth', 'stripe', 'analytics', 'entitlements'] as const;
type Part = (typeof PARTS)[number];

const usage = `usage: npm run bench [-- --only ${PARTS.join(',')}]
  measures latency, DynamoDB calls, bundles and more against an in-memory DynamoDB Local and writes docs/benchmarks.md;
  --only measures the parts named, prints them and leaves docs/benchmarks.md as it is`;

/** The parts named by `--only a,b` (or `--only=a,b`); undefined for the full run. */
function selectedParts(): Set<Part> | undefined {
  const { values } = parseCommandLine(usage, { options: { only: { type: 'string' } } });
  if (values.only === undefined) return undefined;
  const names = values.only.split(',').map((n) => n.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(PARTS as readonly string[]).includes(n));
  if (!names.length || unknown.length) usageError(usage, `--only takes a comma-separated list of: ${PARTS.join(', ')}${unknown.length ? ` (not: ${unknown.join(', ')})` : ''}`);
  return new Set(names as Part[]);
}
// Read before anything is started: `--help` or a bad option leaves nothing behind.
const parts = selectedParts();

let dynamo: RunningDynamo | undefined;
const outRoot = mkdtempSync(join(tmpdir(), 'billing-bench-'));

async function cleanUp(): Promise<void> {
  rmSync(outRoot, { recursive: true, force: true });
  await dynamo?.stop();
  dynamo = undefined;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
}

const measureAllBundles = async () => {
  console.error(`Bundling ${routes.length} functions and timing ${IMPORT_RUNS} imports of each…`);
  const bundles = await measureBundles([BASELINE, ...routes.map((r) => ({ name: r.id, entry: r.handler }))], { projectRoot, outRoot, runs: IMPORT_RUNS });
  const [baseline, ...functions] = bundles as [(typeof bundles)[number], ...typeof bundles];
  return { baseline, functions };
};

/** A fresh DynamoDB Local on the same endpoint (the shared client keeps it), its table made again. */
async function freshDynamo(): Promise<void> {
  const port = Number(new URL(dynamo!.endpoint).port);
  await dynamo!.stop();
  dynamo = await startDynamoLocal({ port });
  await ensureTable(dynamo.endpoint, process.env.TABLE_NAME!);
}

/** `--only`: the selected parts, printed; docs/benchmarks.md is not written. */
async function partial(parts: Set<Part>): Promise<void> {
  const checks: TargetCheck[] = [];
  const sections: string[] = [];
  if (parts.has('synth')) {
    console.error('Timing `npx cdk synth`, cold (empty bundle cache) then warm…');
    const synth = await measureSynth(projectRoot);
    checks.push(...synthTargets(synth));
    sections.push(synthReport(synth));
  }
  if (parts.has('bundles')) {
    const { baseline, functions } = await measureAllBundles();
    checks.push(...bundleChecks(functions, baseline));
    sections.push(`Bundles\n\n${bundleTable(functions, baseline)}`);
  }
  if ([...parts].some((part) => part !== 'bundles')) {
    console.error('Starting DynamoDB Local (in memory)…');
    dynamo = await startDynamoLocal();
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    await ensureTable(dynamo.endpoint, process.env.TABLE_NAME!);
  }
  if (parts.has('changes')) {
    const { startLocalApi } = await import('../../lib/local/server');
    const { measureChangeToListed } = await import('./event-scenarios');
    const keys = await generateKeys();
    const api = await startLocalApi({ keys, port: 0 });
    const options = { baseUrl: api.url, keys, endpoint: dynamo!.endpoint, ...CHANGE };
    const [change, noisy] = await (async () => [await measureChangeToListed(options), await measureChangeToListed({ ...options, noise: NOISE })])().finally(() => api.close());
    checks.push(changeCheck(change!), changeCheck(noisy!));
    sections.push(`Webhook messages: from a change to its message being listed\n\n${changeTable(change!, noisy)}\n\n${changeReading(change!)}\n\n${noisyReading(noisy!)}`);
  }
  if (parts.has('usage')) {
    const { startLocalApi } = await import('../../lib/local/server');
    const { measureUsage } = await import('./usage-scenarios');
    const keys = await generateKeys();
    const api = await startLocalApi({ keys, port: 0 });
    const usage = await measureUsage({ baseUrl: api.url, keys, endpoint: dynamo!.endpoint, ...USAGE_BENCH }).finally(() => api.close());
    checks.push(...usageTargets(usage));
    sections.push(usageReport(usage));
  }
  if (parts.has('entitlements')) {
    const { startLocalApi } = await import('../../lib/local/server');
    const { measureEntitlements, entitlementTargets, entitlementReport } = await import('./entitlement-scenarios');
    const keys = await generateKeys();
    const api = await startLocalApi({ keys, port: 0 });
    const workspace = `ws_bench_${randomUUID().slice(0, 8)}`;
    const token = await signToken(keys, { workspace, scope: 'read write' });
    console.error(`Measuring GET /v1/customers/{id}/entitlements beside one GetItem (${COUNTS.warmup} warm-up + ${COUNTS.measured} rounds)…`);
    const entitlements = await measureEntitlements({ baseUrl: api.url, keys, workspaceId: workspace, token, counts: COUNTS, dynamoWarmup: DYNAMO_WARMUP }).finally(() => api.close());
    checks.push(...entitlementTargets(entitlements));
    sections.push(entitlementReport(entitlements));
  }
  if (parts.has('limiter')) {
    const { startLocalApi } = await import('../../lib/local/server');
    const { measureLimiterOnly } = await import('./customer-scenarios');
    const keys = await generateKeys();
    const api = await startLocalApi({ keys, port: 0 });
    const workspace = `ws_bench_${randomUUID().slice(0, 8)}`;
    const token = await signToken(keys, { workspace, scope: 'read write' });
    console.error(`Measuring GET /v1/customers/{id} with and without the rate limiter (${COUNTS.warmup} warm-up + ${COUNTS.measured} rounds of 6)…`);
    const limiter = await measureLimiterOnly({ baseUrl: api.url, keys, workspaceId: workspace, token, counts: COUNTS, dynamoWarmup: DYNAMO_WARMUP }).finally(() => api.close());
    checks.push(limiterCheck(limiter));
    sections.push(`Rate limiter: GET /v1/customers/{id} with and without it\n\n${limiterTable(limiter)}\n\n${limiterReading(limiter)}`);
  }
  if (parts.has('credentials')) {
    const { startLocalApi } = await import('../../lib/local/server');
    const { measureCredentials } = await import('./credential-scenarios');
    const keys = await generateKeys();
    const api = await startLocalApi({ keys, port: 0 });
    const workspace = `ws_bench_${randomUUID().slice(0, 8)}`;
    const token = await signToken(keys, { workspace, scope: 'read write' });
    const credentials = await measureCredentials({ baseUrl: api.url, workspaceId: workspace, token, counts: COUNTS }).finally(() => api.close());
    checks.push(...credentialTargets(credentials));
    sections.push(credentialReport(credentials));
  }
  if (parts.has('revocation')) {
    const { startLocalApi } = await import('../../lib/local/server');
    const { measureRevocation } = await import('./revocation-scenarios');
    const keys = await generateKeys();
    const api = await startLocalApi({ keys, port: 0 });
    const revocation = await measureRevocation({ baseUrl: api.url, keys, ...REVOCATION }).finally(() => api.close());
    checks.push(...revocationTargets(revocation));
    sections.push(revocationReport(revocation));
  }
  if (parts.has('analytics')) {
    const { startLocalApi } = await import('../../lib/local/server');
    const { measureAnalytics } = await import('./analytics-scenarios');
    const keys = await generateKeys();
    const api = await startLocalApi({ keys, port: 0 });
    const analytics = await measureAnalytics({ baseUrl: api.url, keys, ...ANALYTICS }).finally(() => api.close());
    checks.push(...analyticsTargets(analytics));
    sections.push(analyticsReport(analytics));
  }
  if (parts.has('mcp')) {
    const { startLocalApi } = await import('../../lib/local/server');
    const { measureMcp } = await import('./mcp-scenarios');
    const api = await startLocalApi({ keys: await generateKeys(), port: 0 });
    const mcp = await measureMcp({ baseUrl: api.url, workspaceId: `ws_bench_${randomUUID().slice(0, 8)}`, counts: MCP_COUNTS }).finally(() => api.close());
    checks.push(...mcpTargets(mcp));
    sections.push(mcpReport(mcp));
  }
  if (parts.has('stripe') && (await stripeMeasurable())) {
    const { startLocalApi } = await import('../../lib/local/server');
    const { measureStripeCharges } = await import('./stripe-scenarios');
    const keys = await generateKeys();
    const api = await startLocalApi({ keys, port: 0 });
    console.error(`Measuring a charge through Stripe (stand-in) beside the sandbox (${STRIPE_COUNTS.warmup} warm-up + ${STRIPE_COUNTS.measured} rounds of 3)…`);
    const stripe = await measureStripeCharges({ baseUrl: api.url, keys, counts: STRIPE_COUNTS }).finally(() => api.close());
    checks.push(...stripeTargets(stripe));
    sections.push(stripeReport(stripe));
  }
  if (parts.has('emails')) {
    const { startLocalApi } = await import('../../lib/local/server');
    const { measureEmails } = await import('./email-scenarios');
    const keys = await generateKeys();
    const api = await startLocalApi({ keys, port: 0 });
    console.error(`Measuring POST /v1/invoices/{id}/validate with emails on and off (${EMAIL_COUNTS.warmup} warm-up + ${EMAIL_COUNTS.measured} rounds of 2)…`);
    const emails = await measureEmails({ baseUrl: api.url, keys, counts: EMAIL_COUNTS }).finally(() => api.close());
    checks.push(...emailTargets(emails));
    sections.push(emailReport(emails));
  }
  if (parts.has('billing')) {
    const { startLocalApi } = await import('../../lib/local/server');
    const { measureBilling } = await import('./billing-scenarios');
    const keys = await generateKeys();
    const api = await startLocalApi({ keys, port: 0 });
    const billing = await measureBilling({ baseUrl: api.url, keys, freshDynamo, ...BILLING }).finally(() => api.close());
    checks.push(...billingTargets(billing));
    sections.push(billingReport(billing));
  }
  if (parts.has('heat')) {
    const { startLocalApi } = await import('../../lib/local/server');
    const { measureHeat } = await import('./heat-scenarios');
    const keys = await generateKeys();
    const api = await startLocalApi({ keys, port: 0 });
    const heat = await measureHeat({ baseUrl: api.url, keys, endpoint: dynamo!.endpoint, ...HEAT }).finally(() => api.close());
    checks.push(...heatTargets(heat));
    sections.push(heatReport(heat));
  }
  console.log(`\nTargets (partial run: ${[...parts].join(', ')})\n\n${targetTable(checks)}\n\n${sections.join('\n\n')}\n`);
  const failed = checks.filter((c) => !c.pass);
  console.log(failed.length ? `FAIL: ${failed.length} of ${checks.length} targets missed (see above).` : `PASS: all ${checks.length} targets measured met.`);
  console.log('Partial run: docs/benchmarks.md left as it is.');
}

async function main(): Promise<void> {
  const started = performance.now();

  // Synthesis and bundles first, before Java runs: on an otherwise idle machine.
  console.error('Timing `npx cdk synth`, cold (empty bundle cache) then warm…');
  const synth = await measureSynth(projectRoot);
  const { baseline, functions } = await measureAllBundles();

  console.error('Starting DynamoDB Local (in memory)…');
  dynamo = await startDynamoLocal();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  await ensureTable(dynamo.endpoint, process.env.TABLE_NAME!);

  // Only now: the shared table client reads DYNAMODB_ENDPOINT when its module is first imported.
  const { startLocalApi } = await import('../../lib/local/server');
  const { measureCustomerRoutes } = await import('./customer-scenarios');
  const { measureChangeToListed, measureMessageLists } = await import('./event-scenarios');
  const { measurePriceConfigurationLists } = await import('./catalog-scenarios');
  const { measureTopups } = await import('./credit-scenarios');
  const { measureInvoices } = await import('./invoice-scenarios');
  const { measureBilling } = await import('./billing-scenarios');
  const { measureHeat } = await import('./heat-scenarios');
  const { measureUsage } = await import('./usage-scenarios');
  const { measureCredentials } = await import('./credential-scenarios');
  const { measureMcp } = await import('./mcp-scenarios');
  const { measureRevocation } = await import('./revocation-scenarios');
  const { measureStripeCharges } = await import('./stripe-scenarios');
  const { measureEmails } = await import('./email-scenarios');
  const { measureAnalytics } = await import('./analytics-scenarios');
  const { measureEntitlements, entitlementTargets, entitlementReport } = await import('./entitlement-scenarios');
  const keys = await generateKeys();
  const api = await startLocalApi({ keys, port: 0 });
  const workspace = `ws_bench_${randomUUID().slice(0, 8)}`;
  const token = await signToken(keys, { workspace, scope: 'read write' });

  console.error(`Measuring GET and PUT /v1/customers/{id}, and GET with the rate limiter (${COUNTS.warmup} warm-up + ${COUNTS.measured} requests each)…`);
  const measured = (async () => {
    const customers = await measureCustomerRoutes({ baseUrl: api.url, keys, workspaceId: workspace, token, counts: COUNTS, dynamoWarmup: DYNAMO_WARMUP });
    if (customers.get.callsPerRequest === 0) throw new Error('dynamoCallCount() saw no calls: not the module instance the handlers use');
    console.error(`Measuring POST /v1/customers/{id}/credits/{productId}/topup beside its floors (${TOPUP_COUNTS.warmup} warm-up + ${TOPUP_COUNTS.measured} rounds of 9, interleaved)…`);
    const credits = await measureTopups({ baseUrl: api.url, keys, counts: TOPUP_COUNTS });
    console.error(`Measuring POST /v1/invoices (10 and 100 lines) and POST /v1/invoices/{id}/validate beside their floors ` +
      `(${INVOICE_COUNTS.create.warmup} warm-up + ${INVOICE_COUNTS.create.measured} rounds of 9; ${INVOICE_COUNTS.validate.warmup} + ${INVOICE_COUNTS.validate.measured} rounds of 3)…`);
    const invoices = await measureInvoices({ baseUrl: api.url, keys, counts: INVOICE_COUNTS });
    const lists = await measureMessageLists({ baseUrl: api.url, keys, endpoint: dynamo!.endpoint, sizes: MESSAGE_SIZES, counts: LIST_COUNTS, seedConcurrency: SEED_CONCURRENCY });
    const change = await measureChangeToListed({ baseUrl: api.url, keys, endpoint: dynamo!.endpoint, ...CHANGE });
    const noisy = await measureChangeToListed({ baseUrl: api.url, keys, endpoint: dynamo!.endpoint, ...CHANGE, noise: NOISE });
    const prices = await measurePriceConfigurationLists({
      baseUrl: api.url, keys, endpoint: dynamo!.endpoint, sizes: PRICE_SIZES, others: PRICE_OTHERS, skip: PRICE_SKIP,
      counts: LIST_COUNTS, skipCounts: PRICE_SKIP_COUNTS, seedConcurrency: SEED_CONCURRENCY,
    });
    console.error(`Measuring GET /v1/customers/{id} with an API key beside a JWT (${COUNTS.warmup} warm-up + ${COUNTS.measured} rounds of 3)…`);
    const credentials = await measureCredentials({ baseUrl: api.url, workspaceId: workspace, token, counts: COUNTS });
    console.error(`Measuring the revocation delay of ${REVOCATION.samples} API keys…`);
    const revocation = await measureRevocation({ baseUrl: api.url, keys, ...REVOCATION });
    console.error(`Measuring MCP tools beside their routes (${MCP_COUNTS.warmup} warm-up + ${MCP_COUNTS.measured} rounds of 6)…`);
    const mcp = await measureMcp({ baseUrl: api.url, workspaceId: workspace, counts: MCP_COUNTS });
    console.error(`Measuring a charge through Stripe (stand-in) beside the sandbox (${STRIPE_COUNTS.warmup} warm-up + ${STRIPE_COUNTS.measured} rounds of 3)…`);
    const stripe = (await stripeMeasurable()) ? await measureStripeCharges({ baseUrl: api.url, keys, counts: STRIPE_COUNTS }) : undefined;
    // The parts from here make their own workspaces. A fresh DynamoDB Local first: its stream reads slow down with
    // every record the parts above wrote (hundreds of thousands), which AWS's do not. The email part reads the stream
    // after each request: on the full run's table its 240 reads took over 40 minutes, against a few on a fresh one;
    // an event took 1 s (p50) to reach its usage there, against 0.25 s on a fresh table.
    await freshDynamo();
    const usage = await measureUsage({ baseUrl: api.url, keys, endpoint: dynamo!.endpoint, ...USAGE_BENCH });
    console.error(`Measuring POST /v1/invoices/{id}/validate with emails on and off (${EMAIL_COUNTS.warmup} warm-up + ${EMAIL_COUNTS.measured} rounds of 2)…`);
    const emails = await measureEmails({ baseUrl: api.url, keys, counts: EMAIL_COUNTS });
    const analytics = await measureAnalytics({ baseUrl: api.url, keys, ...ANALYTICS });
    console.error(`Measuring GET /v1/customers/{id}/entitlements beside one GetItem (${COUNTS.warmup} warm-up + ${COUNTS.measured} rounds)…`);
    const entitlements = await measureEntitlements({ baseUrl: api.url, keys, workspaceId: workspace, token, counts: COUNTS, dynamoWarmup: DYNAMO_WARMUP });
    // Last: each of its runs replaces DynamoDB Local with a fresh one, which the parts before would lose their data to.
    console.error(`Measuring a billing day: ${BILLING.subscriptions} renewals due at once with ${BILLING.runs.map((r) => `${r.workers} workers on ${r.entities} entities`).join(', ')}, each beside its floor (${BILLING.floorCounts.measured} rounds)…`);
    const billing = await measureBilling({ baseUrl: api.url, keys, freshDynamo, ...BILLING });
    console.error('Measuring partition heat: one workspace\'s workloads projected on AWS…');
    const heat = await measureHeat({ baseUrl: api.url, keys, endpoint: dynamo!.endpoint, ...HEAT });
    return { customers, credits, invoices, billing, events: { lists, change, noisy }, prices, usage, credentials, revocation, mcp, stripe, emails, heat, analytics, entitlements };
  })();
  const { customers, credits, invoices, billing, events, prices, usage, credentials, revocation, mcp, stripe, emails, heat, analytics, entitlements } = await measured.finally(() => api.close());
  const stripeSection = stripe ? `\n\n${stripeReport(stripe)}` : '';

  const checks = [
    ...checkTargets(customers, events, prices, credits, invoices, functions, baseline), ...billingTargets(billing), ...heatTargets(heat), ...usageTargets(usage), ...credentialTargets(credentials),
    ...revocationTargets(revocation), ...analyticsTargets(analytics), ...entitlementTargets(entitlements), ...mcpTargets(mcp), ...emailTargets(emails), ...(stripe ? stripeTargets(stripe) : []), ...synthTargets(synth),
  ];
  const facts = {
    date: new Date(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown CPU',
    platform: `${platform()} ${release()}`,
    seconds: (performance.now() - started) / 1000,
    ...COUNTS,
    importRuns: IMPORT_RUNS,
    dynamoWarmup: DYNAMO_WARMUP,
  };
  writeFileSync(join(projectRoot, 'docs', 'benchmarks.md'), markdownReport(facts, customers, events, prices, credits, invoices, billing, functions, baseline, checks, `${heatReport(heat)}\n\n${usageReport(usage)}\n\n${credentialReport(credentials)}\n\n${revocationReport(revocation)}\n\n${analyticsReport(analytics)}\n\n${entitlementReport(entitlements)}\n\n${mcpReport(mcp)}\n\n${emailReport(emails)}${stripeSection}\n\n${synthReport(synth)}`));

  console.log(`\nTargets\n\n${targetTable(checks)}\n\nLatency\n\n${latencyTable(customers)}\n\n${overheadTable(customers)}\n\n${getReading(customers)}\n\n` +
    `Rate limiter: GET /v1/customers/{id} with and without it\n\n${limiterTable(customers.limiter)}\n\n${limiterReading(customers.limiter)}\n\n` +
    `Credits: a top-up beside its DynamoDB floors\n\n${topupTable(credits)}\n\n${topupReadTable(credits)}\n\n${topupReading(credits)}\n\n` +
    `Invoices: creation and validation beside their DynamoDB floors\n\n${invoiceTable(invoices)}\n\n${invoiceSendsTable(invoices)}\n\n${invoiceReadTable(invoices)}\n\n${invoiceReading(invoices)}\n\n` +
    `${billingReport(billing)}\n\n${heatReport(heat)}\n\n` +
    `Webhook messages: list latency as the log grows\n\n${messageListTable(events.lists)}\n\n${listReading(events.lists)}\n\n${seedLine(events.lists)}\n\n` +
    `Webhook messages: from a change to its message being listed\n\n${changeTable(events.change, events.noisy)}\n\n${changeReading(events.change)}\n\n${noisyReading(events.noisy)}\n\n` +
    `Price configurations of a product\n\n${priceListTable(prices)}\n\n${priceCostTable(prices)}\n\n${priceListReading(prices)}\n\n${priceSeedLine(prices)}\n\n${usageReport(usage)}\n\n${credentialReport(credentials)}\n\n${revocationReport(revocation)}\n\n${analyticsReport(analytics)}\n\n${entitlementReport(entitlements)}\n\n${mcpReport(mcp)}\n\n${emailReport(emails)}${stripeSection}\n\n${synthReport(synth)}\n\nBundles\n\n${bundleTable(functions, baseline)}\n`);
  const failed = checks.filter((c) => !c.pass);
  console.log(failed.length ? `FAIL: ${failed.length} of ${checks.length} targets missed (see above).` : `PASS: all ${checks.length} targets met.`);
  console.log('Written to docs/benchmarks.md');
}

try {
  await (parts ? partial(parts) : main());
  await cleanUp();
  process.exit(0);
} catch (error) {
  console.error(error);
  await cleanUp();
  process.exit(1);
}
