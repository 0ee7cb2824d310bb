import { billingProjection } from './billing-projection';
import type { BillingResults, WorkerRun } from './billing-scenarios';
import type { TargetCheck } from './targets';

/** The issue's targets for a billing day (issue 18). */
export const BILLING_LIMITS = {
  /** Invoices per second of the run over its floor's (the same sequences sent directly, as many in flight as the queue runs), at every worker count. */
  runOverFloor: 0.8,
} as const;

const n = (value: number) => Math.round(value).toLocaleString('en-US');
const x = (value: number) => `${value.toFixed(2)}×`;
const calls = (value: number) => value.toFixed(2);
const ratio = (r: WorkerRun) => r.run.perSecond / r.floor.perSecond;
const clean = (r: WorkerRun) => r.duplicates === 0 && r.missing === 0 && r.numbers.repeated === 0 && r.numbers.gaps === 0 && r.run.failed === 0 && r.rerun.due === 0 && r.rerun.invoices === 0;

const who = (r: WorkerRun) => `${r.workers} worker${r.workers === 1 ? '' : 's'}, ${r.entities} entit${r.entities === 1 ? 'y' : 'ies'}`;

export function billingTargets(b: BillingResults): TargetCheck[] {
  return b.runs.flatMap((r) => [
    {
      target: `Billing day, ${n(b.subscriptions)} renewals due at once, ${who(r)}: invoices/s ≥ ${BILLING_LIMITS.runOverFloor}× its floor's (the same DynamoDB sequences sent directly, ${r.inFlight} in flight)`,
      measured: `${x(ratio(r))} (${r.run.perSecond.toFixed(1)} vs ${r.floor.perSecond.toFixed(1)} invoices/s; ${calls(r.run.callsPerRenewal)} vs ${calls(r.floor.callsPerRenewal)} DynamoDB calls per renewal; ` +
        `numbering retries ${n(r.run.numberingRetries)} vs ${n(r.floor.numberingRetries)})`,
      pass: ratio(r) >= BILLING_LIMITS.runOverFloor,
    },
    {
      target: `Billing day, ${who(r)}: every subscription invoiced exactly once, 0 duplicate and 0 missing invoice numbers, nothing failed, a second run finds nothing`,
      measured: `${r.duplicates} duplicates, ${r.missing} missing, ${r.numbers.repeated} repeated and ${r.numbers.gaps} missing numbers of ${n(r.numbers.count)}, ${r.run.failed} failed; second run: ${r.rerun.due} due, ${r.rerun.invoices} invoices`,
      pass: clean(r),
    },
  ]);
}

const table = (head: string[], rows: string[][]): string =>
  [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');

export function billingTable(b: BillingResults): string {
  return table(
    ['workers', 'entities', 'batches in flight', 'run: invoices/s', 'floor: invoices/s', 'run / floor', 'run: s', 'DynamoDB calls / renewal (run / floor)', 'numbering retries (run / floor)', 'per renewal (run / floor)', 'duplicates', 'number gaps / repeats', 'second run'],
    b.runs.map((r) => [
      String(r.workers), String(r.entities), String(r.inFlight), r.run.perSecond.toFixed(1), r.floor.perSecond.toFixed(1), x(ratio(r)), r.run.seconds.toFixed(1),
      `${calls(r.run.callsPerRenewal)} / ${calls(r.floor.callsPerRenewal)}`, `${n(r.run.numberingRetries)} / ${n(r.floor.numberingRetries)}`,
      `${(r.run.numberingRetries / b.subscriptions).toFixed(3)} / ${(r.floor.numberingRetries / r.floor.renewals).toFixed(3)}`,
      String(r.duplicates), `${r.numbers.gaps} / ${r.numbers.repeated} of ${n(r.numbers.count)}`, `${r.rerun.due} due, ${r.rerun.invoices} invoices`,
    ]),
  );
}

export function billingReport(b: BillingResults): string {
  const checks = billingTargets(b);
  const failed = checks.filter((c) => !c.pass).length;
  return [
    `## Recurring billing: a billing day of ${n(b.subscriptions)} renewals, with 1, 4 and 16 workers`,
    '',
    billingTable(b),
    '',
    `For each run, a fresh DynamoDB Local (its in-memory tables would otherwise hold every earlier run's workspace, and fill the JVM's heap by the third) and a fresh workspace: its invoicing entities (each with its own numbering counter), a flat fee and a seat price, and ${n(b.subscriptions)} monthly ` +
      'subscriptions spread evenly over the entities (one customer each: a flat fee and 5 seats, billed in advance) all due now, seeded untimed (one made the real way, the others exact ' +
      `copies written with BatchWriteItem; ${b.runs.map((r) => `${r.seedSeconds.toFixed(0)} s`).join(', ')}). The run is one \`runDueWork\` call, timed whole: ` +
      'the reading of the scheduling index (gsi4: one Query per shard and year, and the late partitions), the local queue, and N in-process workers each taking the next 10 items, as SQS hands the worker ' +
      "function a batch, and running them (`runDueBatch`: the renewals of one entity in one transaction, numbered together), an item received up to 5 times as on AWS. " +
      "An entity's renewals share one message group, which the queue hands to one worker at a time, as SQS FIFO does: an entity's batches run one after another, " +
      'and the batches in flight are one per entity, at most one per worker. A batch of 10 renewals sends, in order: ' +
      `${b.described.join(', then ')} (metered on template subscriptions billed together).`,
    '',
    "The floor: the run's whole DynamoDB work sent directly. That sequence, with as many loops in flight as the run has batches in flight, each loop in its own entity, " +
      `for as many renewals as the run (${n(b.floorCounts.measured)}) after ${n(b.floorCounts.warmup)} unrecorded ones sent before the run (so both meet DynamoDB Local warm), timed half before the run and half after (so both meet the table as it was and as it became), ` +
      "and the run's reading of the scheduling index, sent beside the first half's loops as the run's workers start on its first page. " +
      `Each round is on 10 subscriptions and customers of the floor's own (${n(b.floorCounts.pool)} seeded for it, due in ten years so the run never finds them, the rounds going round them: the template's sequence with their ids), as the run's batches each meet their own; its transaction rebuilt on what its reads returned (new ` +
      "invoice ids and the numbers their places take from the entity's counter read, the subscriptions' versions and dates read). When the numbering counter's condition " +
      'fails, the transaction is sent again at once, renumbered from the entity its cancellation returns (after a conflict, from a GetItem after the domain\'s jittered backoff), ' +
      "as the domain does. Numbering retries are the TransactWriteItems cancelled on an entity item (its condition failed, or a " +
      'conflict), counted on the shared client for both. DynamoDB calls per renewal include the retries and the reading of the index.',
    '',
    "Afterwards the workspace's invoices are read from the list index: every subscription of the run has exactly one, and each entity's numbers " +
      '(run, floor and templates) are 1…N with none repeated or missing; a second run finds nothing due and adds nothing. ' +
    `${failed === 0 ? '**Every target is met.**' : `**${failed} of ${checks.length} targets fail.**`} The section took ${b.seconds.toFixed(0)} s.`,
    '',
    billingProjection,
  ].join('\n');
}
