/**
 * Emails off the request path (issue 30): POST /v1/invoices/{id}/validate with emails on beside the same without.
 * "On": the draft's entity has `email_from` and its customer a `billing_email`, so the invoice.ready its validation
 * commits becomes an email, with the invoice PDF, sent through a real SMTP server on 127.0.0.1 (EMAIL_TRANSPORT).
 * "Off": an entity without `email_from` (the default), so that event's email is decided skipped. The two alternate,
 * each on a fresh draft; after each request, untimed, the stream is processed and due jobs run (the stream handler and
 * the delivery consumer are other functions on AWS; in this one process they would take the request's CPU), and at
 * the end every "on" validation must have reached the SMTP server once, and no "off" one. Import only once
 * DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
import { randomUUID } from 'node:crypto';
import type { LocalKeys } from '../../lib/local/jwt';
import { signToken } from '../../lib/local/jwt';
import { startEventRuntime } from '../../lib/local/event-runtime';
import { dynamoCallCount } from '../../shared/db/client';
import { workspaceOf } from '../../shared/db/keys';
import { startSmtpCatcher } from '../support/smtp';
import { apiClient } from './http';
import { summarize, type Summary } from './latency';
import { timed } from './stats';

export interface EmailBenchResults {
  on: { summary: Summary; callsPerRequest: number };
  off: { summary: Summary; callsPerRequest: number };
  counts: { warmup: number; measured: number };
  /** Emails the SMTP server received for the "on" validations (each once), and for the "off" ones (none). */
  sent: { on: number; off: number };
  /** Emails decided skipped (no_sender) for the "off" validations. */
  skipped: number;
  /** Seconds the whole section took. */
  seconds: number;
}

export async function measureEmails(options: { baseUrl: string; keys: LocalKeys; counts: { warmup: number; measured: number } }): Promise<EmailBenchResults> {
  const { baseUrl, keys, counts } = options;
  const started = performance.now();
  const smtp = await startSmtpCatcher();
  const previousTransport = process.env.EMAIL_TRANSPORT;
  process.env.EMAIL_TRANSPORT = smtp.url;
  const workspace = `ws_bench_eml_${randomUUID().slice(0, 8)}`;
  const events = await startEventRuntime({
    endpoint: process.env.DYNAMODB_ENDPOINT!, tableName: process.env.TABLE_NAME!, from: 'latest',
    accept: (record) => workspaceOf(record.dynamodb?.Keys?.pk?.S) === workspace, deliveryTickMs: false,
  });
  try {
    const call = apiClient(baseUrl, await signToken(keys, { workspace, scope: 'read write' }));
    const entity = (name: string, emailFrom?: string) => call<{ id: string }>('POST', '/v1/invoicing-entities', 201, {
      name, country: 'FR', currency: 'EUR', address_line1: '1 rue de Paris', city: 'Paris', zip_code: '75001', ...(emailFrom && { email_from: emailFrom }),
    });
    const entities = { on: await entity('Bench Emails SAS', 'billing@bench.test'), off: await entity('Bench Quiet SAS') };
    const customer = await call<{ id: string }>('POST', '/v1/customers', 201, { name: 'Globex', currency: 'EUR', billing_email: 'ap@globex.test' });
    const variants = ['on', 'off'] as const;
    const rounds = counts.warmup + counts.measured;
    const drafts = { on: [] as string[], off: [] as string[] };
    for (let r = 0; r < rounds; r++) {
      for (const v of variants) {
        const draft = await call<{ id: string }>('POST', '/v1/invoices', 201, {
          customer_id: customer.id, invoicing_entity_id: entities[v].id, line_items: [{ name: 'Platform', unit_amount: 12_345 }, { name: 'Support', unit_amount: 4_999 }],
        });
        drafts[v].push(draft.id);
      }
    }
    await events.settle();

    const samples = { on: [] as number[], off: [] as number[] };
    const calls = { on: 0, off: 0 };
    for (let r = 0; r < rounds; r++) {
      for (const v of r % 2 === 0 ? variants : [...variants].reverse()) {
        const before = dynamoCallCount();
        const ms = await timed(() => call('POST', `/v1/invoices/${drafts[v][r]!}/validate`, 200));
        if (r >= counts.warmup) {
          samples[v].push(ms);
          calls[v] += dynamoCallCount() - before;
        }
        // Off the request path, untimed, before the next request: the stream handler decides the email.
        await events.settle();
      }
      // The delivery consumer sends it (composing the PDF): untimed too.
      await events.deliverDue();
    }

    const log = await call<{ data: { status: string }[]; meta: { total: number } }>('GET', '/v1/emails?status=skipped&take=0', 200);
    const sentTo = (address: string) => smtp.received.filter((mail) => mail.recipients.includes(address)).length;
    const sent = { on: sentTo('ap@globex.test'), off: smtp.received.length - sentTo('ap@globex.test') };
    if (sent.on !== rounds || sent.off !== 0 || log.meta.total !== rounds) {
      throw new Error(`emails: ${sent.on} sent for ${rounds} validations with emails on, ${sent.off} otherwise, ${log.meta.total} skipped`);
    }
    return {
      on: { summary: summarize(samples.on), callsPerRequest: calls.on / counts.measured },
      off: { summary: summarize(samples.off), callsPerRequest: calls.off / counts.measured },
      counts,
      sent,
      skipped: log.meta.total,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await events.stop();
    await smtp.close();
    if (previousTransport === undefined) delete process.env.EMAIL_TRANSPORT;
    else process.env.EMAIL_TRANSPORT = previousTransport;
  }
}
