import { AWS_LIMITS, ITEM_TRANSACTIONS_PER_SECOND, type Heat, type PartitionLoad } from './partition-heat';
import type { HeatResults, WorkloadHeat } from './heat-scenarios';
import type { TargetCheck } from './targets';

/** Issue 31's "Done when", as projected ceilings of one workspace on AWS. */
export const HEAT_LIMITS = {
  oneOffInvoicesPerSecond: 1_000,
  renewalsPerSecond: 1_000,
  /** No item but the per-entity numbering ones in more than this share of a workload's transactions (workloads spanning ≥ 16 entities). */
  otherItemShare: 0.01,
  workspaceEventsPerSecond: 20_000,
  customerEventsPerSecond: 5_000,
  messagesPerSecond: 2_000,
  /** A scheduler tick reads at most this many read units per due item, plus `tickConstantRcu`, whatever is scheduled. */
  tickRcuPerDue: 2,
  tickConstantRcu: 50,
} as const;

const n = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '∞');
const units = (value: number) => (value >= 100 ? n(value) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
const percent = (share: number) => `${(share * 100).toFixed(share < 0.1 ? 2 : 1)} %`;

const table = (head: string[], rows: string[][]): string =>
  [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');

/** A key with its workspace and ids made generic: `WS#<ws>#IVE#<ive>`. */
export const shape = (key: string): string =>
  key.replace(/WS#[^#|\s]+/g, 'WS#<ws>').replace(/\b([a-z]{2,5})_[0-9A-HJKMNP-TV-Z]{26}\b/g, '<$1>');

const where = (p: PartitionLoad | undefined) => (p ? `${p.index} \`${shape(p.partition)}\`` : '–');

/** Units of work per second the workload reaches on AWS: its hottest partition's, or an item's other than the numbering ones'. */
export const projectedCeiling = (w: WorkloadHeat): number => Math.min(w.heat.partitionCeiling, w.others[0]?.ceiling ?? Infinity);

/** The hottest item but the numbering ones, and how many others are in as many transactions. */
function hotItems(w: WorkloadHeat): string {
  const [first, ...rest] = w.others;
  const tied = rest.filter((i) => i.transactions === first!.transactions);
  const others = tied.length ? `; ${tied.length} more in as many, e.g. \`${shape(tied[0]!.item)}\`` : '';
  return `\`${shape(first!.item)}\`: ${percent(first!.share)} (${units(first!.perUnit)} per ${w.unit})${others}`;
}

function heatRow(w: WorkloadHeat): string[] {
  const h = w.heat;
  const other = w.others[0];
  const numbering = w.numbering[0];
  return [
    w.name,
    n(w.units),
    h.hottestWrite ? `${units(h.hottestWrite.perUnit)} on ${where(h.hottestWrite)}` : '–',
    h.hottestRead ? `${units(h.hottestRead.perUnit)} on ${where(h.hottestRead)}` : '–',
    n(h.partitionCeiling),
    other ? `${hotItems(w)}${w.others.length > 1 ? ` (${w.others.filter((i) => i.share > HEAT_LIMITS.otherItemShare).length} over ${percent(HEAT_LIMITS.otherItemShare)})` : ''}` : 'none',
    other ? n(other.ceiling) : '∞',
    numbering ? `${percent(numbering.share)} each; ${n(numbering.ceiling)}/s over ${w.entities} (${n(numbering.ceiling / w.entities)}/s per entity)` : '–',
    `**${n(projectedCeiling(w))}/s**`,
  ];
}

export function heatTable(r: HeatResults): string {
  return table(
    ['workload', 'units measured', 'hottest partition: write units per unit', 'hottest partition: read units per unit', 'partition ceiling /s', 'hottest other item: share of transactions', 'item ceiling /s', 'numbering items (apart)', 'projected ceiling'],
    r.workloads.map(heatRow),
  );
}

/** The three hottest partitions of each workload, by their share of the partition's limits. */
export function partitionTable(r: HeatResults): string {
  return table(
    ['workload', 'partition', 'write units per unit', 'read units per unit', 'ceiling /s'],
    r.workloads.flatMap((w) =>
      w.heat.partitions.slice(0, 3).map((p) => [
        w.name, where(p), units(p.wcu / w.units), units(p.rcu / w.units),
        n(Math.min(p.wcu ? AWS_LIMITS.partitionWcu / (p.wcu / w.units) : Infinity, p.rcu ? AWS_LIMITS.partitionRcu / (p.rcu / w.units) : Infinity)),
      ]),
    ),
  );
}

const tickLimit = (due: number) => HEAT_LIMITS.tickRcuPerDue * due + HEAT_LIMITS.tickConstantRcu;
const hottest = (h: Heat) => h.partitions[0];

export function heatReport(r: HeatResults): string {
  const t = r.tick;
  return `## Partition heat: one workspace projected on AWS (issue 31; docs/scale.md)\n\n${heatTable(r)}\n\n${partitionTable(r)}\n\n` +
    `Scheduler tick: ${n(t.scheduled)} subscriptions scheduled, ${n(t.due)} due: ${units(t.rcu)} read units (${units(t.rcu / t.due)} per due item), ${units(t.wcu)} write units; ` +
    `hottest partition ${where(hottest(t.heat))} (seeded in ${t.seedSeconds.toFixed(1)} s).\n\n` +
    `Units per unit of work on the hottest partition; its ceiling = ${n(AWS_LIMITS.partitionWcu)} write units/s or ${n(AWS_LIMITS.partitionRcu)} read units/s ÷ that. ` +
    `An item's ceiling = ${n(ITEM_TRANSACTIONS_PER_SECOND)} transactions/s (one at a time, ~${AWS_LIMITS.transactionMs} ms each) ÷ its transactions per unit. ` +
    `The per-entity numbering items (the invoicing entity's counter) are reported apart. Measured in ${r.seconds.toFixed(0)} s ` +
    `(${r.workloads.map((w) => `${w.name}: ${w.seconds.toFixed(0)} s`).join('; ')}; the tick's seeding ${t.seedSeconds.toFixed(0)} s), with the recorder's own reads.`;
}

export function heatTargets(r: HeatResults): TargetCheck[] {
  const [invoices, renewals, one, many, messages] = r.workloads as [WorkloadHeat, WorkloadHeat, WorkloadHeat, WorkloadHeat, WorkloadHeat];
  const ceiling = (w: WorkloadHeat) => `${n(projectedCeiling(w))}/s (partition ${n(w.heat.partitionCeiling)}/s on ${where(hottest(w.heat))}; hottest other item ${w.others[0] ? `${n(w.others[0].ceiling)}/s` : 'none'})`;
  const atLeast = (label: string, w: WorkloadHeat, limit: number): TargetCheck => ({
    target: `Partition heat: ${label} ≥ ${n(limit)}/s projected for one workspace on AWS`,
    measured: ceiling(w),
    pass: projectedCeiling(w) >= limit,
  });
  const spread = [invoices, renewals, messages].filter((w) => w.entities >= 16);
  const worst = spread.map((w) => ({ w, item: w.others[0] })).sort((a, b) => (b.item?.share ?? 0) - (a.item?.share ?? 0))[0];
  return [
    atLeast(`one-off invoices across ${invoices.entities} entities (numbering items aside: ${invoices.numbering[0] ? `${n(invoices.numbering[0].ceiling)}/s` : 'none'})`, invoices, HEAT_LIMITS.oneOffInvoicesPerSecond),
    atLeast(`renewals across ${renewals.entities} entities (numbering items aside: ${renewals.numbering[0] ? `${n(renewals.numbering[0].ceiling)}/s` : 'none'})`, renewals, HEAT_LIMITS.renewalsPerSecond),
    {
      target: `Partition heat: no item but the numbering ones in more than ${percent(HEAT_LIMITS.otherItemShare)} of the transactions of a workload spanning ≥ 16 entities`,
      measured: worst?.item ? `${percent(worst.item.share)}: \`${shape(worst.item.item)}\` (${worst.w.name})` : 'no transactions',
      pass: spread.every((w) => (w.others[0]?.share ?? 0) <= HEAT_LIMITS.otherItemShare),
    },
    atLeast('events for the workspace (1,000 customers)', many, HEAT_LIMITS.workspaceEventsPerSecond),
    atLeast('events for one customer', one, HEAT_LIMITS.customerEventsPerSecond),
    atLeast('webhook messages', messages, HEAT_LIMITS.messagesPerSecond),
    {
      target: `Partition heat: a scheduler tick reads ≤ ${HEAT_LIMITS.tickRcuPerDue} read units per due item + ${HEAT_LIMITS.tickConstantRcu}, whatever is scheduled (${n(r.tick.scheduled)} scheduled, ${n(r.tick.due)} due: ≤ ${n(tickLimit(r.tick.due))})`,
      measured: `${units(r.tick.rcu)} read units (${units(r.tick.rcu / r.tick.due)} per due item)`,
      pass: r.tick.rcu <= tickLimit(r.tick.due),
    },
  ];
}
