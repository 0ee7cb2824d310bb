import { percentile, timed } from './stats';

export interface Summary {
  p50: number;
  p95: number;
  samples: number;
}

export interface PairResult {
  route: Summary;
  floor: Summary;
  /** DynamoDB operations sent while the route's measured requests ran (floor operations excluded). */
  callsPerRequest: number;
}

export interface PairOptions {
  warmup: number;
  measured: number;
  route: (i: number) => Promise<unknown>;
  floor: (i: number) => Promise<unknown>;
  /** The shared client's counter, the module instance the handlers use. */
  callCount: () => number;
}

export const summarize = (samples: number[]): Summary => ({ p50: percentile(samples, 50), p95: percentile(samples, 95), samples: samples.length });

/**
 * Runs a route and its floor one at a time, interleaved (and alternating which goes first), so both meet
 * DynamoDB Local in the same state of its JIT and caches; warm-up iterations are not recorded.
 */
export async function measureAgainstFloor(options: PairOptions): Promise<PairResult> {
  const routeMs: number[] = [];
  const floorMs: number[] = [];
  let calls = 0;
  for (let i = 0; i < options.warmup + options.measured; i++) {
    const record = i >= options.warmup;
    const runRoute = async () => {
      const before = options.callCount();
      const ms = await timed(() => options.route(i));
      if (record) {
        routeMs.push(ms);
        calls += options.callCount() - before;
      }
    };
    const runFloor = async () => {
      const ms = await timed(() => options.floor(i));
      if (record) floorMs.push(ms);
    };
    if (i % 2 === 0) {
      await runRoute();
      await runFloor();
    } else {
      await runFloor();
      await runRoute();
    }
  }
  return { route: summarize(routeMs), floor: summarize(floorMs), callsPerRequest: calls / options.measured };
}

/** Times `run` alone: `warmup` unrecorded calls, then `measured` recorded ones. */
export async function measureAlone(run: (i: number) => Promise<unknown>, warmup: number, measured: number): Promise<Summary> {
  const samples: number[] = [];
  for (let i = 0; i < warmup + measured; i++) {
    const ms = await timed(() => run(i));
    if (i >= warmup) samples.push(ms);
  }
  return summarize(samples);
}

export interface RotatingVariant {
  name: string;
  run: (i: number) => Promise<unknown>;
}

export interface VariantResult {
  summary: Summary;
  /** DynamoDB operations the variant sent per measured run (by `callCount`, the shared client's counter). */
  callsPerRequest: number;
}

/**
 * Runs every variant once per round, one at a time, starting each round one variant further along, so all meet
 * DynamoDB Local in the same state of its JIT and caches; warm-up rounds are not recorded.
 */
export async function measureRotating(
  variants: RotatingVariant[],
  counts: { warmup: number; measured: number },
  callCount: () => number,
): Promise<Map<string, VariantResult>> {
  const samples = variants.map(() => [] as number[]);
  const calls = variants.map(() => 0);
  for (let round = 0; round < counts.warmup + counts.measured; round++) {
    const record = round >= counts.warmup;
    for (let k = 0; k < variants.length; k++) {
      const v = (round + k) % variants.length;
      const before = callCount();
      const ms = await timed(() => variants[v]!.run(round));
      if (record) {
        samples[v]!.push(ms);
        calls[v]! += callCount() - before;
      }
    }
  }
  return new Map(variants.map((variant, v) => [variant.name, { summary: summarize(samples[v]!), callsPerRequest: calls[v]! / counts.measured }]));
}
