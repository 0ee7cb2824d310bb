import type { BundleResult } from './bundles';
import type { CustomerResults } from './customer-scenarios';

/** The targets. */
export const LIMITS = {
  getLatencyOverFloor: 1.5,
  getDynamoCalls: 1,
  bundleKb: 700,
  importOverBaseline: 1.3,
} as const;

export interface TargetCheck {
  target: string;
  measured: string;
  pass: boolean;
}

export const kb = (bytes: number): number => bytes / 1024;

export function checkTargets(customers: CustomerResults, functions: BundleResult[], baseline: BundleResult): TargetCheck[] {
  const getRatio = customers.get.route.p50 / customers.get.floor.p50;
  const largest = functions.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const slowest = functions.reduce((a, b) => (b.medianImportMs > a.medianImportMs ? b : a));
  const slowRatio = slowest.medianImportMs / baseline.medianImportMs;
  const overSize = functions.filter((f) => kb(f.bytes) > LIMITS.bundleKb).map((f) => f.name);
  const overImport = functions.filter((f) => f.medianImportMs / baseline.medianImportMs > LIMITS.importOverBaseline).map((f) => f.name);
  const offenders = (names: string[]) => (names.length ? `; over: ${names.join(', ')}` : '');
  return [
    {
      target: `GET /v1/customers/{id} p50 ≤ ${LIMITS.getLatencyOverFloor}× the raw GetItem p50`,
      measured: `${getRatio.toFixed(2)}× (${customers.get.route.p50.toFixed(2)} ms vs ${customers.get.floor.p50.toFixed(2)} ms)`,
      pass: getRatio <= LIMITS.getLatencyOverFloor,
    },
    {
      target: `GET /v1/customers/{id}: exactly ${LIMITS.getDynamoCalls} DynamoDB call per request`,
      measured: `${formatCalls(customers.get.callsPerRequest)} per request`,
      pass: customers.get.callsPerRequest === LIMITS.getDynamoCalls,
    },
    {
      target: `every function bundle ≤ ${LIMITS.bundleKb} KB`,
      measured: `largest ${kb(largest.bytes).toFixed(1)} KB (${largest.name})${offenders(overSize)}`,
      pass: overSize.length === 0,
    },
    {
      target: `every import time ≤ ${LIMITS.importOverBaseline}× the empty handler's`,
      measured: `slowest ${slowRatio.toFixed(2)}× (${slowest.name}, ${slowest.medianImportMs.toFixed(1)} ms vs ${baseline.medianImportMs.toFixed(1)} ms)${offenders(overImport)}`,
      pass: overImport.length === 0,
    },
  ];
}

export const formatCalls = (calls: number): string => (Number.isInteger(calls) ? String(calls) : calls.toFixed(2));
