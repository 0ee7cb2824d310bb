/**
 * npm run --silent quarantine -- list [--workspace <ws>|@ops] | replay <ref> | discard <ref>
 * Quarantined stream records (docs/operations.md): against DynamoDB Local when DYNAMODB_ENDPOINT is set (the
 * DynamoDB line `npm start` prints), else against AWS with the usual credentials, TABLE_NAME and, for replay,
 * DELIVERY_QUEUE_URL (both from the stream handler's environment).
 */
import { parseCommandLine, tableFromEnvironment, usageError } from './command-line';

const usage = `usage: npm run --silent quarantine -- list [--workspace <ws>|@ops] | replay <ref> | discard <ref>
  quarantined stream records: DynamoDB Local when DYNAMODB_ENDPOINT is set, else AWS (TABLE_NAME, and
  DELIVERY_QUEUE_URL for replay, from the stream handler's environment); docs/operations.md`;
const { values, positionals } = parseCommandLine(usage, { allowPositionals: true, options: { workspace: { type: 'string' } } });
const [command, ref] = positionals;
if (!(command === 'list' || ((command === 'replay' || command === 'discard') && ref))) {
  usageError(usage, command ? `unknown command or missing reference: ${positionals.join(' ')}` : 'no command given');
}
const local = tableFromEnvironment();
if (local) process.env.WEBHOOKS_ALLOW_HTTP_LOOPBACK ??= 'true';
if (command === 'replay' && !local && !process.env.DELIVERY_QUEUE_URL) {
  console.error('Set DELIVERY_QUEUE_URL (the stream handler has it in its environment): replayed messages queue their deliveries there.');
  process.exit(2);
}

// Imported only now: the table client reads DYNAMODB_ENDPOINT when its module loads.
const { discardQuarantined, listQuarantined, replayQuarantined } = await import('../shared/domain/events/quarantine');
try {
  if (command === 'list') {
    for (const record of await listQuarantined(values.workspace)) console.log(JSON.stringify(record));
  } else if (command === 'discard') {
    await discardQuarantined(ref!);
    console.log(`discarded ${ref}`);
  } else {
    // Locally, deliveries wait in the memory of the process that queued them: this one makes their first attempts
    // before it exits (later retries: POST /v1/webhooks/messages/{id}/retry). On AWS they go to the SQS queue.
    const { LocalDeliveryQueue, useDeliveryQueue } = await import('../shared/domain/webhooks/delivery-queue');
    const queue = local ? new LocalDeliveryQueue(() => new Date()) : undefined;
    if (queue) useDeliveryQueue(queue);
    await replayQuarantined(ref!);
    if (queue) {
      const { runJob } = await import('../shared/domain/webhooks/run-job');
      await queue.runDue(runJob);
    }
    console.log(`replayed ${ref}`);
  }
} catch (error) {
  const still = command === 'replay' ? `replay of ${ref} failed; it stays quarantined: ` : '';
  console.error(still + (error instanceof Error ? `${error.name}: ${error.message}` : String(error)));
  process.exit(1);
}
