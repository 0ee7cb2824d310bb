import type { Family } from './facts';
import { MOVEMENTS } from './mrr';

/**
 * The metrics of `GET /v1/analytics/{metric}` (docs/analytics.md): each reads one family (one Query). A `flow` sums
 * the period's changes (amounts invoiced in a month); a `level` is the sum of every change up to the period's last
 * day (MRR at the end of the month); `aged` is today's receivables by how long they are overdue.
 */
export interface MetricDefinition {
  family: Family;
  kind: 'flow' | 'level' | 'aged';
  /** The item numbers that make the value (summed); more than one: each is also a member of the data point. */
  parts: readonly string[];
  /** ARR is twelve times MRR. */
  factor?: number;
}

export const METRICS = {
  mrr: { family: 'MRR', kind: 'level', parts: ['mrr'] },
  arr: { family: 'MRR', kind: 'level', parts: ['mrr'], factor: 12 },
  mrr_movements: { family: 'MRR', kind: 'flow', parts: MOVEMENTS },
  active_customers: { family: 'MRR', kind: 'level', parts: ['active_customers'] },
  churned_customers: { family: 'MRR', kind: 'flow', parts: ['churned_customers'] },
  active_subscriptions: { family: 'MRR', kind: 'level', parts: ['active_subscriptions'] },
  churned_subscriptions: { family: 'MRR', kind: 'flow', parts: ['churned_subscriptions'] },
  invoiced: { family: 'BIL', kind: 'flow', parts: ['invoiced'] },
  collected: { family: 'BIL', kind: 'flow', parts: ['collected'] },
  credited: { family: 'BIL', kind: 'flow', parts: ['credited'] },
  refunded: { family: 'BIL', kind: 'flow', parts: ['refunded'] },
  recognised_revenue: { family: 'REC', kind: 'flow', parts: ['recognised'] },
  outstanding_receivables: { family: 'AR', kind: 'aged', parts: ['outstanding'] },
} as const satisfies Record<string, MetricDefinition>;

export type MetricName = keyof typeof METRICS;
export const METRIC_NAMES = Object.keys(METRICS) as MetricName[];

export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

/** The ageing buckets of receivables, by days past the due day (0 or less: current). */
export const AGEING = [
  { name: 'current', upTo: 0 },
  { name: 'overdue_1_30', upTo: 30 },
  { name: 'overdue_31_60', upTo: 60 },
  { name: 'overdue_61_90', upTo: 90 },
  { name: 'overdue_over_90', upTo: Infinity },
] as const;
