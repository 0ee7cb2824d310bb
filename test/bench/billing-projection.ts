/**
 * The billing day projected to AWS: arithmetic from the measured run and AWS's published figures, kept beside the
 * billing report so a full \`npm run bench\` writes it with the rest (docs/benchmarks.md is generated whole).
 * Its heat ceilings come from docs/scale.md (\`npm run bench -- --only heat\`).
 */
export const billingProjection = `### Projection to AWS: 100,000 and 1,000,000 renewals due at once

This projection counts time and capacity; partition heat sets a second ceiling, measured apart
(\`npm run bench -- --only heat\`, [docs/scale.md](scale.md)). Since issue 31, one workspace's renewals are bounded
by heat at **≈ 7,000/s** (the invoice list's and the due index's shards, since the subscription list is sharded too),
one-off invoices at ≈ 3,000/s, webhook messages at ≈ 2,200/s (the analytics' partitions) and events at 40,000/s for
the workspace; each entity's gapless numbering allows ≈ 364 renewals/s per entity. Where the table below gives more
than that for one workspace, the lower figure binds (several workspaces together reach the table's account quota
instead).

Assumptions, in one region: a strongly consistent \`BatchGetItem\` of 10–11 items ≈ 8 ms; a \`TransactWriteItems\` of 42
items (10 renewals) ≈ 30 ms; the worker's CPU ≈ 2 ms per renewal on a 512 MB arm64 Lambda (the run above spends
≈ 0.6 ms per renewal outside DynamoDB calls on this machine's full core; 512 MB is about a third of a vCPU). An
entity's batches come one after another (one message group): SQS gives the group's next 10 messages once the last
10 are deleted, which the event source does after the function returns, ≈ 30 ms between batches. One entity's batch
is then 8 + 8 + 30 + 20 + 30 ≈ **100 ms: ≈ 100 renewals/s per entity**. Its counter alone would allow ≈ 330/s
(10 renewals per ≈ 30 ms transaction), so one worker per entity leaves it a third used, and never loses a transaction
to a race. Capacity per renewal: ≈ 1.5 read units and ≈ 15 write units (transactional writes cost 2 units per KB:
the invoice of ~4 KB ≈ 8, its customer counter, customer and subscription ≈ 2 each; the two counters ≈ 4 shared by
10). The scheduled function reads from its cursor what came due in \`gsi4\` (one Query per shard of 16, keys only,
≈ 150 bytes an entry: ≈ 7,000 entries a 1 MB page, ≈ 30 ms a page, the shards in parallel; docs/scheduled-work.md),
never what is scheduled later, and sends 10 items per \`SendMessageBatch\` (≈ 20 ms), 16 in flight; one message group takes ≈ 300 batched calls
a second (3,000 messages). The worker function runs up to 16 at once (\`maxConcurrency\`).

| | 100,000 renewals | 1,000,000 renewals |
| --- | --- | --- |
| enqueue: read what is due | 15 pages over 16 shards in parallel ≈ 30–60 ms | 150 pages over 16 shards ≈ 0.3 s |
| enqueue: send, many entities | 10,000 batches × 20 ms / 16 ≈ 13 s | ≈ 125 s |
| enqueue: send, one entity (one group, ≤ 3,000 messages/s) | ≈ 35 s | ≈ 5.5 min: past the scheduled function's 5 minutes, so the rest is sent by the next run (its cursor stopped where the first did), well before the entity's workers reach it |
| **one entity**: one worker at a time, ≈ 100/s | ≈ 17 min | ≈ 2.8 h |
| many entities: 16 workers × ≈ 100/s | ≈ 1,600/s, under the heat's ≈ 7,000/s (above): 100,000 in ≈ 1 min | ≈ 10 min |
| write units at 1,600/s | 1,600 × 15 ≈ 24,000 WCU/s: a new on-demand table serves 4,000 at first, so ≈ 270/s (≈ 6 min) on its first such day, until on-demand adapts or the table is pre-warmed | the same, ≈ 1 h on a cold new table |
| more workers (\`maxConcurrency\` 100), many entities, table pre-warmed | the default 40,000 WCU/s table quota: 40,000 / 15 ≈ 2,700/s ≈ 40 s | ≈ 6 min |
| DynamoDB calls | 100,000 × 0.3 ≈ 30,000, and 10,000 sends | ten times as many, and 100,000 sends |

Before per-entity groups, workers on one entity raced for its counter: the same arithmetic gave ≤ 330/s only if
batches never raced, and the measurement above showed what racing costs (16 workers on one entity at 8.2 invoices/s
locally, 2.1 retries per renewal). Before batching, one entity was capped at ≈ 66/s (one 15 ms transaction per invoice,
5 calls per renewal). What would raise one entity's pace further: bigger batches (a transaction holds 24 renewals;
SQS hands a Lambda 10 FIFO messages at most, so that means a worker gathering more than one receive, not built), or
two or three message groups per entity, whose rare races now cost one round trip each (the renumbering retry); neither
is built. The fan-out itself removes the 15-minute limit: no invocation holds more than 10 items.
`;
