/** The sizes of the usage metering scenarios (usage-scenarios.ts), in `npm run bench` and `npm run bench -- --only usage`. */
export const USAGE_BENCH = {
  ingestion: { batchSize: 1_000, warmup: 2, measured: 10 },
  visible: { warmup: 2, samples: 20, pollIntervalMs: 20, limitMs: 10_000 },
  reads: { small: 1_000, large: 100_000, counts: { warmup: 20, measured: 100 } },
  hot: { events: 5_000, batchSize: 100, shards: 4 },
} as const;
