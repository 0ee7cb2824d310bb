import { billingReport } from './billing-report';
import type { BillingResults } from './billing-scenarios';
import type { BundleResult } from './bundles';
import type { PriceListResults } from './catalog-scenarios';
import type { TopupResults, TopupSeries } from './credit-scenarios';
import type { ReadCost } from './dynamo-meter';
import type { CustomerResults, LimiterResults } from './customer-scenarios';
import type { ChangeToListedResults, ListSeries, MessageListResults } from './event-scenarios';
import type { InvoiceCost, InvoiceResults, InvoiceSeries } from './invoice-scenarios';
import type { PairResult, Summary } from './latency';
import { formatCalls, formatMs, growth, invoiceRatio, kb, limiterCost, LIMITS, priceGrowth, topupRatio, type EventResults, type TargetCheck } from './targets';

export interface BenchFacts {
  date: Date;
  node: string;
  cpus: number;
  cpuModel: string;
  platform: string;
  seconds: number;
  warmup: number;
  measured: number;
  importRuns: number;
  dynamoWarmup: number;
}

const ms = (value: number): string => value.toFixed(2);
const ratio = (value: number): string => `${value.toFixed(2)}×`;
const table = (head: string[], rows: string[][]): string =>
  [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

function latencyRow(route: string, floor: string, r: PairResult): string[] {
  return [route, ms(r.route.p50), ms(r.route.p95), floor, ms(r.floor.p50), ms(r.floor.p95),
    ratio(r.route.p50 / r.floor.p50), ratio(r.route.p95 / r.floor.p95), formatCalls(r.callsPerRequest)];
}

export function latencyTable(c: CustomerResults): string {
  const read = 'GetItem (consistent)';
  const write = 'GetItem (consistent) + conditional PutItem';
  return table(
    ['Route', 'p50 ms', 'p95 ms', 'Floor (raw DynamoDB)', 'floor p50 ms', 'floor p95 ms', 'p50 ratio', 'p95 ratio', 'DynamoDB calls / request'],
    [
      latencyRow('GET /v1/customers/{id}', read, c.get),
      latencyRow('↳ its handler, invoked in-process', read, c.getHandler),
      latencyRow('PUT /v1/customers/{id}', write, c.put),
      latencyRow('↳ its handler, invoked in-process', write, c.putHandler),
    ],
  );
}

/** The parts of a local request that API Gateway does on AWS. */
export function overheadTable(c: CustomerResults): string {
  return table(
    ['Local stand-in for API Gateway', 'p50 ms', 'p95 ms'],
    [
      ['HTTP round trip alone (`GET /health`: no token, no handler)', ms(c.http.p50), ms(c.http.p95)],
      ['Token check alone (RS256 JWT verification, jose)', ms(c.tokenCheck.p50), ms(c.tokenCheck.p95)],
    ],
  );
}

/** One generated sentence that splits the GET route's time over the floor. */
export function getReading(c: CustomerResults): string {
  const overFloor = c.get.route.p50 - c.get.floor.p50;
  const handlerOver = c.getHandler.route.p50 - c.getHandler.floor.p50;
  return `GET p50 is ${ms(overFloor)} ms above its floor through the local server; invoked in-process, the handler is ` +
    `${ms(handlerOver)} ms above it (${ratio(c.getHandler.route.p50 / c.getHandler.floor.p50)}). The remaining ${ms(overFloor - handlerOver)} ms ` +
    `is the local stand-in for API Gateway: the in-process HTTP round trip (alone: p50 ${ms(c.http.p50)} ms), the token check ` +
    `(alone: p50 ${ms(c.tokenCheck.p50)} ms) and the server's routing, body reading and event building. On AWS these happen in ` +
    'API Gateway, not in the function, and beside a GetItem that takes milliseconds over the network.';
}

const count = (n: number): string => n.toLocaleString('en-US');

/** GET /v1/customers/{id} with and without the per-workspace rate limiter. */
export function limiterTable(l: LimiterResults): string {
  const row = (label: string, without: typeof l.with, withIt: typeof l.with) => [
    label, both(without.summary), both(withIt.summary), ratios(withIt.summary, without.summary),
    `${formatCalls(without.callsPerRequest)} → ${formatCalls(withIt.callsPerRequest)}`,
  ];
  return table(
    ['Request', 'without the limiter: p50 / p95 ms', 'with it: p50 / p95 ms', 'with / without: p50 / p95', 'DynamoDB calls / request'],
    [
      row('GET /v1/customers/{id}', l.without, l.with),
      row('↳ its handler, invoked in-process', l.handlerWithout, l.handlerWith),
      row('↳ its floor, sent directly: GetItem (consistent) alone, then beside one block reservation\'s UpdateItem', l.floorWithout, l.floorWith),
    ],
  );
}

/** What the limiter adds, and why. */
export function limiterReading(l: LimiterResults): string {
  const http = limiterCost(l, 'http');
  const added = l.with.summary.p50 - l.without.summary.p50;
  const verdict = http <= LIMITS.limiterOverGet
    ? `**The target is met:** ${ratio(http)} (≤ ${LIMITS.limiterOverGet}×).`
    : `**The target is missed:** ${ratio(http)} (> ${LIMITS.limiterOverGet}×), ${ms(added)} ms more at p50.`;
  const floor = l.floorWith.summary.p50 / l.floorWithout.summary.p50;
  const reservations = l.with.callsPerRequest - l.without.callsPerRequest;
  return `${verdict} The limiter reserves blocks of tokens from the workspace's counter item (docs/rate-limits.md, "Reservation"): ` +
    `one UpdateItem (\`ADD n size\`) per block, sized to the instance's traffic, and the requests in between are admitted from memory. ` +
    `Here ${formatCalls(reservations)} reservations per request (about one every ${reservations > 0 ? Math.round(1 / reservations) : '∞'} requests)` +
    `${reservations < 0.5 ? ': the median request sends no UpdateItem at all' : ''}. A request that does reserve costs what the floor row shows: the GetItem beside one UpdateItem sent directly ` +
    `is ${ratio(floor)} the GetItem alone (${ms(l.floorWith.summary.p50)} ms vs ${ms(l.floorWithout.summary.p50)} ms) on DynamoDB Local, where a write is ` +
    'slower than a strongly consistent read; a read waits for it only when its instance has no token left (its reservation runs beside the read). ' +
    `Limits while measured: ${count(l.limits.reads)} reads per ${l.limits.windowSeconds} s (no request refused: the ordinary path). ` +
    'Every other measurement of this report runs with the limiter off (`RATE_LIMIT_ENABLED=false`).';
}

/** GET /v1/webhooks/messages at both log sizes: the route, its floor, and how each grows. */
export function messageListTable(lists: MessageListResults): string {
  const { small, large } = lists;
  const row = (listing: string, s: ListSeries, l: ListSeries) => [
    listing,
    `${ms(s.route.p50)} / ${ms(s.route.p95)}`,
    `${ms(l.route.p50)} / ${ms(l.route.p95)}`,
    ratio(l.route.p50 / s.route.p50),
    ratio(l.route.p95 / s.route.p95),
    `${ms(s.floor.p50)} / ${ms(l.floor.p50)}`,
    ratio(l.floor.p50 / s.floor.p50),
    s.callsPerRequest === l.callsPerRequest ? formatCalls(s.callsPerRequest) : `${formatCalls(s.callsPerRequest)} / ${formatCalls(l.callsPerRequest)}`,
  ];
  return table(
    ['GET /v1/webhooks/messages (first page, limit 50)', `${count(small.messages)} msgs: p50 / p95 ms`, `${count(large.messages)} msgs: p50 / p95 ms`,
      `p50 ratio ${count(large.messages)}/${count(small.messages)}`, 'p95 ratio', 'floor p50 ms (small / large)', 'floor p50 ratio', 'DynamoDB calls / request'],
    [
      row('no filter (one Query on the workspace\'s message partition)', small.plain, large.plain),
      row(`\`?event_types=${lists.filterType}\` (one Query on its gsi2 partition)`, small.filtered, large.filtered),
    ],
  );
}

export function seedLine(lists: MessageListResults): string {
  const { small, large } = lists;
  const rate = (n: number, s: number) => count(Math.round(n / s));
  return `Seeded directly in DynamoDB Local (BatchWriteItem, 25 items per call, ${lists.seedConcurrency} calls in flight): ` +
    `${count(small.messages)} messages in ${small.seed.seconds.toFixed(1)} s and ${count(large.messages)} in ${large.seed.seconds.toFixed(1)} s ` +
    `(${rate(large.messages, large.seed.seconds)}/s; ${small.seed.retries + large.seed.retries} calls re-sent for UnprocessedItems), each workspace fresh. ` +
    `Message times are spread evenly over the last ${lists.spanDays} days (inside the default 90-day window), over ${lists.seededTypes.length} event types ` +
    `(${lists.seededTypes.map((t) => `\`${t}\``).join(', ')}; ${(lists.filterShare * 100).toFixed(0)} % are \`${lists.filterType}\`), ` +
    'with copies of a real customer or invoicing entity as their data.';
}

/** One generated sentence on how the first page grows with the log. */
export function listReading(lists: MessageListResults): string {
  const route = growth(lists, 'plain');
  const floor = lists.large.plain.floor.p50 / lists.small.plain.floor.p50;
  const calls = lists.large.plain.callsPerRequest;
  const verdict = route <= LIMITS.listGrowth
    ? `stays within ${LIMITS.listGrowth}×: the first page does not grow with the log`
    : floor > LIMITS.listGrowth
      ? `exceeds ${LIMITS.listGrowth}×, and so does the floor (${ratio(floor)}): the growth is DynamoDB Local's own Query on a larger partition, not the handler`
      : `exceeds ${LIMITS.listGrowth}× while the floor does not (${ratio(floor)}): the growth is in the handler, not in DynamoDB`;
  return `From ${count(lists.small.messages)} to ${count(lists.large.messages)} messages the first page's p50 ${verdict}. ` +
    `Each listing is a newest-first key-range Query with Limit 51 (the page and one more, to know there is a next page), so it reads ` +
    `the same 51 items whatever the partition holds; the floor is that Query sent directly (the key that signs the next-page ` +
    `iterator is read once per process, then remembered). ${formatCalls(calls)} DynamoDB calls per request.`;
}

// ---------------------------------------------------------------------------------------------------------------
// Price configurations of a product

const rcu = (cost: ReadCost): string => (cost.rcu === undefined ? 'not reported' : String(cost.rcu));

/** GET /v1/price-configurations?product_id=… first page at both sizes: the route, its floor, and how each grows. */
export function priceListTable(prices: PriceListResults): string {
  const { small, large } = prices;
  const s = small.firstPage;
  const l = large.firstPage;
  return table(
    ['GET /v1/price-configurations?product_id=… (first page, take 50)', `${count(small.configurations)} configs: p50 / p95 ms`, `${count(large.configurations)} configs: p50 / p95 ms`,
      `p50 ratio ${count(large.configurations)}/${count(small.configurations)}`, 'p95 ratio', 'floor p50 ms (small / large)', 'floor p50 ratio', 'DynamoDB calls / request'],
    [[
      'gsi3 key window (Query, Limit 50) ∥ product counter (GetItem), then BatchGetItem of the page',
      `${ms(s.route.p50)} / ${ms(s.route.p95)}`,
      `${ms(l.route.p50)} / ${ms(l.route.p95)}`,
      ratio(l.route.p50 / s.route.p50),
      ratio(l.route.p95 / s.route.p95),
      `${ms(s.floor.p50)} / ${ms(l.floor.p50)}`,
      ratio(l.floor.p50 / s.floor.p50),
      s.callsPerRequest === l.callsPerRequest ? formatCalls(s.callsPerRequest) : `${formatCalls(s.callsPerRequest)} / ${formatCalls(l.callsPerRequest)}`,
    ]],
  );
}

/** What one request reads: the first page at both sizes and skip=5000 at the large one. */
export function priceCostTable(prices: PriceListResults): string {
  const { small, large, skip } = prices;
  const row = (request: string, latency: { route: { p50: number; p95: number }; floor: { p50: number; p95: number } }, cost: ReadCost) => [
    request,
    `${ms(latency.route.p50)} / ${ms(latency.route.p95)}`,
    `${ms(latency.floor.p50)} / ${ms(latency.floor.p95)}`,
    String(cost.calls),
    `${count(cost.indexEntries)} (${cost.queries} Quer${cost.queries === 1 ? 'y' : 'ies'})`,
    count(cost.batchItems),
    count(cost.getItems),
    count(cost.indexEntries + cost.batchItems),
    rcu(cost),
  ];
  return table(
    ['Request (one product)', 'p50 / p95 ms', 'floor p50 / p95 ms', 'DynamoDB calls', 'index entries read (gsi3, keys only)', 'items fetched (BatchGetItem)', 'counter read (GetItem)',
      'items read (entries + items)', 'RCU (DynamoDB Local, eventually consistent)'],
    [
      row(`first page, ${count(small.configurations)} configurations`, small.firstPage, small.firstPageCost),
      row(`first page, ${count(large.configurations)} configurations`, large.firstPage, large.firstPageCost),
      row(`\`skip=${count(skip.skip)}&take=${skip.take}\`, ${count(large.configurations)} configurations`, skip.latency, skip.cost),
    ],
  );
}

/** Generated sentences on how the first page grows and what skipping costs. */
export function priceListReading(prices: PriceListResults): string {
  const { small, large, skip } = prices;
  const route = priceGrowth(prices);
  const floor = large.firstPage.floor.p50 / small.firstPage.floor.p50;
  const verdict = route <= LIMITS.priceListGrowth
    ? `stays within ${LIMITS.priceListGrowth}×: the first page does not grow with the product's configurations`
    : floor > LIMITS.priceListGrowth
      ? `exceeds ${LIMITS.priceListGrowth}×, and so does the floor (${ratio(floor)}): the growth is DynamoDB Local's own, not the handler's`
      : `exceeds ${LIMITS.priceListGrowth}× while the floor does not (${ratio(floor)}): the growth is in the handler, not in DynamoDB`;
  const first = large.firstPageCost;
  const perThousand = skip.cost.rcu !== undefined && first.rcu !== undefined ? (skip.cost.rcu - first.rcu) / (skip.skip / 1000) : undefined;
  return `From ${count(small.configurations)} to ${count(large.configurations)} configurations on the product, the first page's p50 ${verdict}. ` +
    `\`product_id=<id>\` alone is served by the product's own keys-only gsi3 partition (a Query with Limit 50) and its counter ` +
    `(\`meta.total\`), read in parallel, then one BatchGetItem of the 50 items: ${formatCalls(large.firstPage.callsPerRequest)} DynamoDB calls, and the same ` +
    `${count(first.indexEntries)} index entries and ${count(first.batchItems)} items read whatever the product (or the rest of the catalog) holds.\n\n` +
    `Skipping reads keys only: \`skip=${count(skip.skip)}\` reads ${count(skip.cost.indexEntries)} gsi3 entries (${skip.cost.queries} Queries of at most 1,000 keys) ` +
    `but fetches only the ${count(skip.cost.batchItems)} items of the page, in ${skip.cost.calls} DynamoDB calls` +
    (skip.cost.rcu !== undefined && first.rcu !== undefined ? `, ${skip.cost.rcu} RCU against ${first.rcu} for the first page (${ratio(skip.cost.rcu / first.rcu)}; ` +
      `about ${perThousand!.toFixed(1)} RCU per 1,000 skipped)` : '') +
    `, p50 ${ms(skip.latency.route.p50)} ms against ${ms(large.firstPage.route.p50)} ms (its floor: ${ms(skip.latency.floor.p50)} ms): the cost grows ` +
    `linearly with \`skip\`, in small index entries, not in items. Its operations, in the order they were answered: ${skip.cost.operations.join(', ')}. ` +
    `RCU as DynamoDB Local reports them with ReturnConsumedCapacity TOTAL (asked for by the bench's meter on the metered requests only).`;
}

export function priceSeedLine(prices: PriceListResults): string {
  const { small, large } = prices;
  const written = small.seed.written + large.seed.written;
  const seconds = small.seed.seconds + large.seed.seconds;
  return `Seeded directly in DynamoDB Local (BatchWriteItem, 25 items per call, ${prices.seedConcurrency} calls in flight): ` +
    `${count(small.inWorkspace)} configurations in one workspace, all on its one product, and ${count(large.inWorkspace)} in another: ` +
    `${count(large.configurations)} on the measured product and ${count(large.inWorkspace - large.configurations)} on ${large.otherProducts} other products ` +
    `(their own gsi3 partitions and counters; the workspace-wide list and counter hold all ${count(large.inWorkspace)}), ` +
    `${count(written)} in ${seconds.toFixed(1)} s (${small.seed.retries + large.seed.retries} calls re-sent for UnprocessedItems). ` +
    'The products are created with `POST /v1/products`; the configurations (one a minute, oldest first, volume tiers in EUR) are built as ' +
    '`createPriceConfiguration` builds them, with both counters it keeps (checked against one configuration created through the API; ' +
    '`test/bench/price-configuration-seed.ts`).';
}

// ---------------------------------------------------------------------------------------------------------------
// Credits: top-up

const both = (s: Summary): string => `${ms(s.p50)} / ${ms(s.p95)}`;
const ratios = (route: Summary, floor: Summary): string => `${ratio(route.p50 / floor.p50)} / ${ratio(route.p95 / floor.p95)}`;
const transactionOf = (described: string[]): string => described.find((d) => d.startsWith('TransactWriteItems')) ?? 'no TransactWriteItems';

/** The top-up beside (a) its transaction alone and (b) its reads + that transaction. */
export function topupTable(c: TopupResults): string {
  const row = (label: string, s: TopupSeries) => [
    label, ms(s.route.summary.p50), ms(s.route.summary.p95),
    both(s.write.summary), ratios(s.route.summary, s.write.summary),
    both(s.full.summary), ratios(s.route.summary, s.full.summary),
    formatCalls(s.route.callsPerRequest),
  ];
  const path = 'POST /v1/customers/{id}/credits/{productId}/topup';
  return table(
    ['Request', 'p50 ms', 'p95 ms', '(a) TransactWriteItems alone: p50 / p95 ms', 'ratio to (a): p50 / p95',
      '(b) GetItem of the balance, then TransactWriteItems: p50 / p95 ms', 'ratio to (b): p50 / p95', 'DynamoDB calls / request'],
    [
      row(`${path} \`{"credit_count": ${c.creditCount}}\``, c.plain),
      row('↳ its handler, invoked in-process', c.handler),
      row(`${path} \`{"credit_count": ${c.creditCount}, "expires_at": <a year ahead>}\``, c.expiring),
    ],
  );
}

/** The handler's read, alone. */
export function topupReadTable(c: TopupResults): string {
  return table(
    ['Read alone (beside the rows above, same rounds)', 'p50 ms', 'p95 ms'],
    [
      ['GetItem, strongly consistent: the balance (the handler\'s one read on an existing balance: what (b) adds to (a))', ms(c.balanceRead.summary.p50), ms(c.balanceRead.summary.p95)],
      ['BatchGetItem, strongly consistent: customer, product, balance (what a first top-up, or one naming a price, reads)', ms(c.batchRead.summary.p50), ms(c.batchRead.summary.p95)],
    ],
  );
}

/** What the floors contain, why, and (when the target fails) where the time over (a) goes and what could remove it. */
export function topupReading(c: TopupResults): string {
  const p = c.plain;
  const limit = LIMITS.topupOverWriteFloor;
  const toWrite = topupRatio(p, 'write');
  const expiringToWrite = topupRatio(c.expiring, 'write');
  const get = c.balanceRead.summary.p50;
  const above = (x: number): string => (x >= 0 ? `${ms(x)} ms above` : `${ms(-x)} ms below`);
  const rows = [{ label: 'without `expires_at`', s: p }, { label: 'with `expires_at`', s: c.expiring }];
  const failing = rows.filter((r) => topupRatio(r.s, 'write') > limit);
  const ops = c.cost.plain.described;

  const floors = 'What the floors contain. **(a)** is what the issue names, the one TransactWriteItems the handler sends ' +
    `(\`writeLedger\`, shared/db/ledger.ts) and nothing else: ${transactionOf(ops)}, sent alone on a balance whose \`_version\` the floor ` +
    `keeps itself (it is that balance's only writer): ${formatCalls(p.write.callsPerRequest)} DynamoDB call. **(b)** is the handler's whole ` +
    `sequence sent directly, like the PUT customer floor: ${ops.join(', then ')}: ${formatCalls(p.full.callsPerRequest)} calls. ` +
    'The customer and the product are checked inside the transaction (ConditionChecks), not read: the handler reads them only to explain a failed ' +
    'check (404/409/422), and reads all three only for a first top-up or one naming a price. ' +
    'Both floors are built with the handler\'s own builders (`creditChange`, `newLot`, `steadyStateChecks`, `ledgerItems`) and checked, on a metered ' +
    'request each, to send the same operations, conditions, expressions and attributes as the handler; afterwards every balance (the routes\' and ' +
    `the floors', ${c.checkedBalances}) is checked through the API to hold ${c.creditCount} credits per top-up and to list as many transactions. ` +
    'Each variant writes its own customer\'s balance (same product), created beforehand by one top-up through the API, so the measured top-ups ' +
    'are the steady state (an existing balance: no balance-counter update) and no two variants race on one `_version`. With `expires_at`, the ' +
    'lot\'s sort key holds the expiry instead of `NEVER` and the lot carries the scheduling-index (gsi4) keys, so the same Put also writes a gsi4 ' +
    `entry: ${transactionOf(c.cost.expiring.described)}; the read is the same. Capacity units as DynamoDB Local reports them with ` +
    'ReturnConsumedCapacity TOTAL (asked for only on the metered requests); AWS bills a transactional write at 2 WCU per item and KB, so they are ' +
    'indicative only.';

  const part = ({ label, s: row }: (typeof rows)[number]) =>
    `${label}, the top-up is ${above(row.route.summary.p50 - row.write.summary.p50)} (a) (${ratio(topupRatio(row, 'write'))}); the read, (b) − (a), ` +
    `is ${ms(row.full.summary.p50 - row.write.summary.p50)} ms, and the rest, ${ms(row.route.summary.p50 - row.full.summary.p50)} ms (${ratio(topupRatio(row, 'full'))} of (b)), ` +
    'is the handler and the local stand-in for API Gateway';
  const split = `Where the time goes (p50): ${part(rows[0]!)} (the balance GetItem alone: ${ms(get)} ms; invoked in-process, the handler is ` +
    `${above(c.handler.route.summary.p50 - c.handler.full.summary.p50)} (b): the remainder is mostly the HTTP round trip and token check; even so, in-process it is ${ratio(c.handler.route.summary.p50 / c.handler.write.summary.p50)} of (a)); ${part(rows[1]!)}.`;

  const verdict = failing.length > 0
    ? `**The target fails against (a)** (${failing.map((r) => r.label).join(' and ')}). ${split}\n\n` +
      `The handler sends ${formatCalls(p.route.callsPerRequest)} DynamoDB calls per top-up: ${ops.join(', then ')}. The balance read cannot be ` +
      'folded into the transaction: it supplies the `_version` the Update is conditioned on, the `transaction_count` that keys the new entry and the ' +
      '`balance` of its `balance_after`, and TransactWriteItems returns no values. To go lower, a warm function could keep the balance it last ' +
      'wrote and write on it directly: a stale copy fails the `_version` condition and `retryOnRace` reads again.'
    : `**The target is met:** the top-up is ${ratio(toWrite)} its transaction alone (with \`expires_at\`: ${ratio(expiringToWrite)}), within ${limit}×. ${split}`;
  return `${floors}\n\n${verdict}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Invoices: creation and validation

const lineMix = (n: number): string => `${n} lines: ${Math.ceil(n / 2)} of one fee price configuration, ${Math.floor(n / 2)} custom`;

/** Creation (10, 100 lines) and validation, each beside (a) its transaction alone and (b) its reads + that transaction. */
export function invoiceTable(inv: InvoiceResults): string {
  const row = (label: string, s: InvoiceSeries, route: InvoiceSeries['route'] = s.route) => [
    label, ms(route.summary.p50), ms(route.summary.p95),
    both(s.write.summary), ratios(route.summary, s.write.summary),
    both(s.full.summary), ratios(route.summary, s.full.summary),
    formatCalls(route.callsPerRequest),
  ];
  const { small, large } = inv.create;
  return table(
    ['Request', 'p50 ms', 'p95 ms', '(a) its TransactWriteItems alone: p50 / p95 ms', 'ratio to (a): p50 / p95',
      '(b) its GetItems, then that TransactWriteItems: p50 / p95 ms', 'ratio to (b): p50 / p95', 'DynamoDB calls / request'],
    [
      row(`POST /v1/invoices (${lineMix(inv.lines.small)})`, small),
      row(`POST /v1/invoices (${lineMix(inv.lines.large)})`, large),
      row(`↳ its handler, invoked in-process (${inv.lines.large} lines)`, large, inv.create.largeHandler),
      row(`POST /v1/invoices/{id}/validate (a fresh draft of ${inv.lines.small} lines each time)`, inv.validate),
    ],
  );
}

const written = (cost: InvoiceCost): string => {
  const write = cost.route.requests.find((r) => r.command === 'TransactWriteItems');
  return write?.units === undefined ? 'not reported' : String(write.units);
};

/** What one request of each kind sends, from the meter. */
export function invoiceSendsTable(inv: InvoiceResults): string {
  const row = (label: string, cost: InvoiceCost) => [label, cost.described.join(', then '), `${(cost.itemBytes / 1024).toFixed(1)} KB`, written(cost)];
  return table(
    ['Request', 'DynamoDB operations, in the order they were answered', 'invoice item (JSON)', 'transaction: capacity units reported (DynamoDB Local)'],
    [
      row(`POST /v1/invoices, ${inv.lines.small} lines`, inv.cost.small),
      row(`POST /v1/invoices, ${inv.lines.large} lines`, inv.cost.large),
      row('POST /v1/invoices/{id}/validate', inv.cost.validate),
    ],
  );
}

/** The read alone, beside the creation rows (same rounds). */
export function invoiceReadTable(inv: InvoiceResults): string {
  return table(
    ['Beside the creation rows (same rounds)', 'p50 ms', 'p95 ms', 'DynamoDB calls'],
    [
      ['GetItem, strongly consistent, alone (the customer): the unit of each read round trip', ms(inv.getItem.summary.p50), ms(inv.getItem.summary.p95), formatCalls(inv.getItem.callsPerRequest)],
    ],
  );
}

/** What the floors contain, where the time goes, what grows with the lines, and the verdicts. */
export function invoiceReading(inv: InvoiceResults): string {
  const { small, large, largeHandler } = inv.create;
  const val = inv.validate;
  const p50 = (v: { summary: Summary }) => v.summary.p50;
  const createLimit = LIMITS.invoiceCreateOverFullFloor;
  const validateLimit = LIMITS.invoiceValidateOverFullFloor;

  const floors = 'What the floors contain. **(a)** is the one TransactWriteItems the handler sends, alone. For creation ' +
    '(`createInvoice`, shared/domain/invoices/create.ts; no coupons, a draft): the product\'s ConditionCheck, the invoice Put ' +
    '(`attribute_not_exists(pk)`), the workspace\'s and the customer\'s invoice counters, and the customer\'s currency-lock Update; the ' +
    'invoice item is one created through the API with the same body, read back, and put again under a new id (its keys, timestamps and ' +
    'line ids new), so the floor writes the same attributes and the same bytes. For validation (`validateInvoice`, status.ts): the issued ' +
    'invoice Put on its `_version` and the entity\'s numbering Update (`takeNumber`, numbering.ts), built with the handler\'s own `issue`, ' +
    'on drafts read beforehand and an entity whose counter the floor keeps itself (it is that entity\'s only writer). **(b)** is the ' +
    `handler's whole sequence sent directly, in its order and with its parallelism: for creation ${formatCalls(small.full.callsPerRequest)} calls in ` +
    '4 round trips, the customer (`customerFor`), then the price configuration → its product (`resolveLines`: each read once however many ' +
    'lines use it) ∥ the entity ∥ the customer\'s invoice counter (`isFirstOrder`), then the transaction; ' +
    `for validation ${formatCalls(val.full.callsPerRequest)} calls in 3 round trips, the draft, then its entity ∥ its customer, ` +
    'then the transaction. All reads are strongly consistent, as the handler\'s. On one metered request of each kind, each floor is checked ' +
    'to send the handler\'s transaction (operations, keys, conditions, expressions, attributes, line count, item size within 4 bytes) and ' +
    '(b) the handler\'s reads (the same keys, for creation). Afterwards the workspace is checked through the API: it lists every invoice ' +
    `written, the route's and the floors' (${count(inv.checked.invoices)}: the floors do move the counters), and each of the three validation ` +
    `entities has taken exactly one number per validation (${count(inv.checked.numbered)} in all), its last draft \`to_pay\` with the last number. ` +
    'Each variant validates its own drafts on its own entity, so no two race on a numbering counter; all creation variants share one ' +
    'customer, one product and one price configuration, one after another.';

  const grows = (x: number, y: number) => `${ms(y - x)} ms (${ms(x)} → ${ms(y)})`;
  const split = (label: string, s: InvoiceSeries) =>
    `${label}, the reads, (b) − (a), take ${ms(p50(s.full) - p50(s.write))} ms and the rest, route − (b), ${ms(p50(s.route) - p50(s.full))} ms`;
  const where = `Where the time goes (p50; the rest is the handler's CPU and the local stand-in for API Gateway). ` +
    `${split(`With ${inv.lines.small} lines`, small)}; ${split(`with ${inv.lines.large} lines`, large)} ` +
    `(invoked in-process the ${inv.lines.large}-line handler is ${ms(p50(largeHandler))} ms, ${ratio(p50(largeHandler) / p50(large.full))} of (b): ` +
    `the local server and token check are ${ms(p50(large.route) - p50(largeHandler))} ms of it); ${split('validation', val)}. ` +
    `From ${inv.lines.small} to ${inv.lines.large} lines the route grows by ${grows(p50(small.route), p50(large.route))}: the transaction alone grows by ` +
    `${grows(p50(small.write), p50(large.write))} (an invoice item of ${(inv.cost.small.itemBytes / 1024).toFixed(1)} → ${(inv.cost.large.itemBytes / 1024).toFixed(1)} KB as JSON, ` +
    `${written(inv.cost.small)} → ${written(inv.cost.large)} capacity units reported for the transaction), the reads do not (the same ` +
    `${formatCalls(small.route.callsPerRequest)} / ${formatCalls(large.route.callsPerRequest)} calls), and the handler's own part, route − (b), ` +
    `${grows(p50(small.route) - p50(small.full), p50(large.route) - p50(large.full))}: validating, pricing and building the lines and serialising them ` +
    'twice (the item, the answer).';

  const createOk = invoiceRatio(small, 'full') <= createLimit && invoiceRatio(large, 'full') <= createLimit;
  const validateOk = invoiceRatio(val, 'full') <= validateLimit;
  const verdict = (ok: boolean, what: string, limit: number, detail: string) =>
    ok ? `**${what}: the target is met** (${detail}, within ${limit}× of (b)).` : `**${what}: the target fails** (${detail}, over ${limit}× of (b)).`;
  const verdicts = [
    verdict(createOk, 'Creation', createLimit, `${inv.lines.small} lines: ${ratio(invoiceRatio(small, 'full'))}; ${inv.lines.large} lines: ${ratio(invoiceRatio(large, 'full'))}`),
    verdict(validateOk, 'Validation', validateLimit, ratio(invoiceRatio(val, 'full'))),
  ].join(' ');
  const targets = `The targets are set against (b), the handler's own sequence, not against (a): a route that must read before it writes ` +
    `cannot approach its transaction alone, and what (b) leaves is what the handler and the local API add on top of DynamoDB. ` +
    `${createLimit}× for creation leaves room for its CPU with ${inv.lines.large} lines; ${validateLimit}× for validation, whose body is empty.`;
  return `${floors}\n\n${where}\n\n${targets} ${verdicts}`;
}

export function changeTable(change: ChangeToListedResults, noisy?: ChangeToListedResults): string {
  const row = (c: ChangeToListedResults, label: string) => [label, formatMs(c.p50), formatMs(c.p95), formatMs(c.max), String(c.samples.length + c.timeouts), String(c.timeouts)];
  const quiet = 'POST /v1/customers → its `customer.created` in `GET /v1/webhooks/messages?event_types=customer.created`';
  return table(
    ['From a change to its message being listed', 'p50 ms', 'p95 ms', 'max ms', 'changes', 'not listed in time'],
    [row(change, quiet), ...(noisy?.noise ? [row(noisy, `the same, while another workspace ingests ${noisy.noise.events.toLocaleString('en-US')} events as fast as it can`)] : [])],
  );
}

/** What the noisy row's other workspace did, and why its burst does not reach the messages. */
export function noisyReading(noisy: ChangeToListedResults): string {
  const noise = noisy.noise;
  if (!noise) return '';
  return `The noisy row: another workspace sent ${noise.events.toLocaleString('en-US')} usage events of one customer in batches of ` +
    `${noise.batchSize.toLocaleString('en-US')} (\`POST /v1/events/batch\`, ${noise.concurrency} at a time), all answered after ${noise.ingestSeconds.toFixed(1)} s; ` +
    `the usage read showed all of them ${noise.appliedSeconds.toFixed(1)} s after the first batch. ${noise.samplesDuringNoise} of the ` +
    `${noisy.samples.length + noisy.timeouts} changes were made before that. The stream has two consumers (docs/operations.md): the message ` +
    'consumer\'s poller is fed only item types that produce events, so usage events are read past, not worked, and the usage consumer ' +
    'applies them at its own pace.';
}

export function changeReading(change: ChangeToListedResults): string {
  return `Each time runs from sending the POST (its round trip alone: p50 ${ms(change.post.p50)} ms) to the first listing that ` +
    `holds the message, polled every ${change.pollIntervalMs} ms (${change.pollsPerSample.toFixed(1)} listings per change on average). ` +
    'Most of it is the stream poller\'s wait: it sleeps 200 ms after a pass that found nothing, so a change waits 0–200 ms ' +
    'for the next GetRecords (a pass also re-describes the table and its stream at least once a second); then the stream ' +
    'handler writes the event and its message (one transaction per change) and looks for subscribed endpoints, and the next listing, ' +
    `at most ${change.pollIntervalMs} ms later, shows it. On AWS the event source mapping polls the stream itself; this is the local runtime's figure.`;
}

export function bundleTable(functions: BundleResult[], baseline: BundleResult): string {
  const lazy = (b: BundleResult) => (b.lazyPackages.length ? `${b.lazyPackages.join(', ')} ${kb(b.lazyBytes).toFixed(1)}` : '');
  const row = (b: BundleResult) => [b.name, `\`${b.entry}\``, kb(b.bytes).toFixed(1), lazy(b), ms(b.medianImportMs), ratio(b.medianImportMs / baseline.medianImportMs)];
  return table(['Function', 'Entry', 'Size KB', 'Beside it, loaded on first use, KB', 'Import median ms', 'Import vs baseline'], [row(baseline), ...functions.map(row)]);
}

export function targetTable(checks: TargetCheck[]): string {
  return table(['Target', 'Measured', 'Result'], checks.map((c) => [c.target, c.measured, c.pass ? 'PASS' : '**FAIL**']));
}

export function markdownReport(
  facts: BenchFacts, customers: CustomerResults, events: EventResults, prices: PriceListResults, credits: TopupResults, invoices: InvoiceResults,
  billing: BillingResults, functions: BundleResult[], baseline: BundleResult, checks: TargetCheck[], usage: string,
): string {
  const { lists, change } = events;
  return `# Benchmarks

Generated by \`npm run bench\` (test/bench/run.ts) on ${facts.date.toISOString()}; do not edit by hand, run it again.

Machine: Node ${facts.node}, ${facts.cpus} CPU${facts.cpus === 1 ? '' : 's'} (${facts.cpuModel}), ${facts.platform}. The run took ${facts.seconds.toFixed(0)} s.

## How to run, what is measured

\`npm run bench\` (needs Java 17+ for DynamoDB Local). In one run it starts DynamoDB Local in memory, creates the
table, starts the local API in-process on a free port and measures:

- **Latency** of GET and PUT \`/v1/customers/{id}\` through the local HTTP server (a node:http keep-alive client to 127.0.0.1
  with a valid bearer token, which the server verifies once and then remembers until it expires, as a client reuses it), sequential: ${facts.warmup} warm-up requests, then ${facts.measured} measured ones. Beside each, its **floor**: the raw
  DynamoDB operations the handler needs, sent with the same client to the same DynamoDB Local, interleaved with the
  route's requests. Before anything is recorded, ${facts.dynamoWarmup} DynamoDB operations let DynamoDB Local's JIT settle.
  Through the local server, route/floor includes the HTTP round trip and the token check, which API Gateway does on
  AWS; the same handlers are therefore also invoked in-process with the event the server would build (middy,
  validation, the domain call, mapping), and the HTTP round trip (\`GET /health\`) and a first-sight token check are timed alone.
- **DynamoDB calls per request**: the shared client's counter (\`dynamoCallCount()\`) around the measured requests.
- **The per-workspace rate limiter** (\`shared/http/rate-limit.ts\`): \`GET /v1/customers/{id}\` with it on and off, through the local
  server and in-process, and their floor sent directly (the GetItem alone, and beside one block reservation's UpdateItem), all six
  interleaved in rotating order: ${facts.warmup} warm-up rounds, then ${facts.measured} measured ones. Everything
  else is measured with it off.
- **Credit top-ups**: a fresh workspace with an invoicing entity, a \`credit\` product (\`POST /v1/products\`) with a bundle price
  configuration (a top-up without \`price_id\` never reads it) and one customer (currency EUR) per variant, each balance created by a
  first top-up. \`POST /v1/customers/{id}/credits/{productId}/topup\` with \`{"credit_count": ${credits.creditCount}}\` (no \`price_id\`, no
  \`expires_at\`, no \`Idempotency-Key\`) through the local server and in-process, and with \`expires_at\` a year ahead, each beside two
  floors: (a) its TransactWriteItems alone, (b) its read (a GetItem of the balance) and that transaction sent directly; and two reads alone (that GetItem, and the BatchGetItem of a first top-up);
  all nine interleaved in rotating order: ${credits.counts.warmup} warm-up rounds, then ${credits.counts.measured} measured ones. What one top-up sends is counted by the meter
  (\`test/bench/dynamo-meter.ts\`) on separate, untimed requests.
- **Invoices**: a fresh workspace with an invoicing entity (its default), a customer in EUR, a \`flat_fee\` product and one \`fee\`
  price configuration on it. \`POST /v1/invoices\` (a draft, no coupons) with ${invoices.lines.small} and with ${invoices.lines.large} lines, half of them
  \`{price_configuration_id, quantity}\` of that one configuration and half custom \`{name, unit_amount}\`, through the local server (and,
  with ${invoices.lines.large} lines, in-process), each beside two floors: (a) its TransactWriteItems alone, (b) its GetItems, in its order, then
  that transaction, sent directly; and a GetItem alone; all eight interleaved in rotating order:
  ${invoices.create.counts.warmup} warm-up rounds, then ${invoices.create.counts.measured} measured ones. Then \`POST /v1/invoices/{id}/validate\` beside its two floors, in
  rotating order, each round on a fresh ${invoices.lines.small}-line draft of its own created beforehand (untimed: ${3 * (invoices.validate.counts.warmup + invoices.validate.counts.measured + 1)}
  drafts in ${invoices.draftSeconds.toFixed(1)} s, the three variants' interleaved): ${invoices.validate.counts.warmup} warm-up rounds, then ${invoices.validate.counts.measured} measured ones.
  What one request of each kind sends is counted by the meter on separate, untimed requests. The section took ${invoices.seconds.toFixed(0)} s.
- **Recurring billing, a billing day**: for ${billing.runs.map((r) => r.workers).join(', ')} workers, a fresh workspace with one invoicing entity and
  ${count(billing.subscriptions)} monthly subscriptions (one customer each) all due at once; one \`runDueWork\` call (the reading of the scheduling index, the queue and N in-process
  workers) issues their invoices, timed as a whole: invoices per second, DynamoDB calls per renewal, the numbering counter's retries. Beside each, its
  floor: one renewal's DynamoDB sequence sent directly with as many in flight, ${count(billing.floorCounts.measured)} rounds. Then the invoices are checked
  (one per subscription, numbers without gap or repeat) and a second run must find nothing due. The section took ${billing.seconds.toFixed(0)} s.
- **Partition heat** (issue 31): one workspace's workloads (one-off invoices and renewals across 16 entities, events of one
  customer and of 1,000, their webhook messages, a scheduler tick over 100,000 scheduled subscriptions) run with the
  partition-heat recorder (\`test/bench/heat-recorder.ts\`), which counts every request's capacity units on the table and
  index partitions it touches and the items each transaction holds, projected on AWS's per-partition and per-item limits:
  the method, the ceilings before and after, and the arithmetic are in [docs/scale.md](scale.md).
- **Webhook message listing as the log grows**: two fresh workspaces seeded directly in DynamoDB Local with
  ${count(lists.small.messages)} and ${count(lists.large.messages)} webhook messages, built as \`shared/domain/events/record-events.ts\` builds
  them (checked against one real \`recordEvents\` call; \`test/bench/message-seed.ts\`). The first page of
  \`GET /v1/webhooks/messages\` (default limit 50), without a filter and with \`?event_types=${lists.filterType}\`, at both sizes, each
  beside its floor (the handler's DynamoDB operations sent directly), all eight interleaved in rotating order: ${lists.counts.warmup}
  warm-up rounds, then ${lists.counts.measured} measured ones. The first page is checked (50 messages, newest first, starting
  at the newest seeded one, an iterator to the next page) before it is timed.
- **From a change to its message being listed**: the local API and the local event runtime (\`startEventRuntime\`,
  the real stream poller at its default 200 ms interval, started from the stream's end, deliveries not ticking) in this
  process; in a fresh workspace (invoicing entity first), ${change.samples.length + change.timeouts} customers created one at a time with \`POST /v1/customers\`
  (after ${change.warmup} unrecorded ones, each started at a different point of the poller's cycle), each followed by
  \`GET /v1/webhooks/messages?event_types=customer.created\` every ${change.pollIntervalMs} ms until its message appears (at most ${change.limitMs / 1000} s).
- **A product's price configurations as they grow**: two fresh workspaces, each with one \`seat\` product made with
  \`POST /v1/products\` holding ${count(prices.small.configurations)} and ${count(prices.large.configurations)} price configurations (the larger workspace also holds
  ${count(prices.large.inWorkspace - prices.large.configurations)} configurations of ${prices.large.otherProducts} other products), seeded directly as \`createPriceConfiguration\` writes them
  (checked against one made through the API). The first page of \`GET /v1/price-configurations?product_id=…\` (default take 50)
  at both sizes, each beside its floor (the same gsi3 Query and counter GetItem in parallel, then the BatchGetItem, sent
  directly), all four interleaved in rotating order: ${prices.counts.warmup} warm-up rounds, then ${prices.counts.measured} measured ones; then
  \`skip=${count(prices.skip.skip)}&take=${prices.skip.take}\` on the larger product beside its floor (${prices.skip.counts.warmup} warm-up, then ${prices.skip.counts.measured} measured
  pairs). Each page is checked (total, and the seeded configurations expected at that offset, oldest first) before it is
  timed. What one request reads (index entries, items, capacity units) is counted by a middleware on the shared client
  (\`test/bench/dynamo-meter.ts\`) on separate, untimed requests.
- **Emails off the request path**: \`POST /v1/invoices/{id}/validate\` of fresh drafts, alternating an entity with
  \`email_from\` (its customer has a \`billing_email\`: each validation's email, with the PDF, goes to a real SMTP server
  on 127.0.0.1) and one without (the email is skipped); the stream and the sends run untimed after each request; every
  "on" validation must have reached the SMTP server once (\`test/bench/email-scenarios.ts\`).
- **Bundles**: every route's handler bundled with the CDK stack's esbuild options (\`lib/bundling.ts\`), and an empty
  handler that only builds the DynamoDB client (\`test/bench/empty-handler.ts\`) as the baseline. Size in KB (1 KB =
  1024 bytes) of the bundle; the modules imported only on first use (\`lazyPackages\` in lib/bundling.ts: the Stripe SDK,
  the S3, KMS, Lambda and Secrets Manager clients, and the project's \`#lazy/pdf-sheet\` and \`#lazy/pdf-logo\`, pdfkit's
  drawing) travel beside it as modules of their own, shown apart and not imported here, as a cold start does not; import time is the median over ${facts.importRuns} fresh \`node\` processes of \`await import(bundle)\` (node's own
  startup excluded).

Latency is measured against DynamoDB Local (Java, on this machine), not AWS: the absolute numbers are not AWS
numbers (no network hop, a different storage engine). The ratios and the call counts are what matter.

## Targets

${targetTable(checks)}

## Latency

${latencyTable(customers)}

${overheadTable(customers)}

${getReading(customers)}

## Rate limiter: GET /v1/customers/{id} with and without it

${limiterTable(customers.limiter)}

${limiterReading(customers.limiter)}

## Credits: a top-up beside its DynamoDB floors

${topupTable(credits)}

${topupReadTable(credits)}

${topupReading(credits)}

## Invoices: creation (${invoices.lines.small} and ${invoices.lines.large} lines) and validation beside their DynamoDB floors

${invoiceTable(invoices)}

${invoiceSendsTable(invoices)}

${invoiceReadTable(invoices)}

${invoiceReading(invoices)}

${billingReport(billing)}

## Webhook messages: list latency as the log grows

${messageListTable(lists)}

${listReading(lists)}

${seedLine(lists)}

## Webhook messages: from a change to its message being listed

${changeTable(change, events.noisy)}

${changeReading(change)}

${noisyReading(events.noisy)}

## Price configurations of a product: first page as they grow, and the cost of skipping

${priceListTable(prices)}

${priceCostTable(prices)}

${priceListReading(prices)}

${priceSeedLine(prices)}

${usage}

## Bundles

${bundleTable(functions, baseline)}
`;
}
