import type { EmailBenchResults } from './email-scenarios';
import type { TargetCheck } from './targets';

/** Issue 30's target: validating an invoice with emails on costs at most this much more than without. */
export const EMAILS_ON_OVER_OFF = 1.1;

const ms = (value: number) => `${value.toFixed(2)} ms`;
const ratio = (e: EmailBenchResults) => e.on.summary.p50 / e.off.summary.p50;
const calls = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

export function emailTargets(e: EmailBenchResults): TargetCheck[] {
  return [
    {
      target: `POST /v1/invoices/{id}/validate with emails on: p50 ≤ ${EMAILS_ON_OVER_OFF}× its p50 without (sending happens off the request path)`,
      measured: `${ratio(e).toFixed(2)}× (${ms(e.on.summary.p50)} vs ${ms(e.off.summary.p50)}); ${calls(e.on.callsPerRequest)} vs ${calls(e.off.callsPerRequest)} DynamoDB calls per validation; ${e.sent.on} emails sent for ${e.sent.on} validations`,
      pass: ratio(e) <= EMAILS_ON_OVER_OFF,
    },
  ];
}

export function emailReport(e: EmailBenchResults): string {
  return [
    '## Emails: validating an invoice with emails on and off',
    '',
    `POST /v1/invoices/{id}/validate through the local server, each on a fresh draft, "on" and "off" alternating (${e.counts.warmup} warm-up + ${e.counts.measured} rounds). On: the entity has \`email_from\` and the customer a \`billing_email\`, so each validation's \`invoice.ready\` becomes an email with the invoice PDF, sent to a real SMTP server on 127.0.0.1. Off (the floor): an entity without \`email_from\`, so the same event's email is decided skipped. After each request, untimed, the stream is processed and due jobs run, as the stream handler and the delivery consumer, other functions on AWS, would (test/bench/email-scenarios.ts).`,
    '',
    '| validation | p50 | p95 | DynamoDB calls per request | emails |',
    '|---|---|---|---|---|',
    `| emails on | ${ms(e.on.summary.p50)} | ${ms(e.on.summary.p95)} | ${calls(e.on.callsPerRequest)} | ${e.sent.on} sent, one per validation |`,
    `| emails off (floor) | ${ms(e.off.summary.p50)} | ${ms(e.off.summary.p95)} | ${calls(e.off.callsPerRequest)} | ${e.sent.off} sent, ${e.skipped} skipped (\`no_sender\`) |`,
    '',
    `On over off: ${ratio(e).toFixed(2)}× at p50 (target ≤ ${EMAILS_ON_OVER_OFF}×). The request writes the same items either way; the email is decided by the stream handler and sent by the delivery consumer afterwards. The section took ${e.seconds.toFixed(0)} s.`,
  ].join('\n');
}
