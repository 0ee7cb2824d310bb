import { makeCtx } from '../context';
import { getItem } from '../db/items';
import { updateUnlessDone } from '../db/transactions';
import type { EmailJob } from '../domain/webhooks/delivery-queue';
import { nextAttemptAt } from '../domain/webhooks/retry-schedule';
import { logger } from '../observability/logger';
import { composeEmail } from './compose';
import { emailKey, type EmailItem } from './email-item';
import { markInvoiceEmail } from './invoice-email-status';
import { queueEmailAttempt } from './schedule';
import { emailTransport } from './transport';

/**
 * How long a worker holds an email while it sends it: longer than a send can take (the consumer's timeout is
 * 3 min), shorter than SQS's redelivery of a job whose worker died (its visibility timeout, 18 min).
 */
export const EMAIL_LEASE_MS = 5 * 60_000;

/**
 * Makes one attempt of an email job. The worker first takes the email (a conditional write: still queued, this
 * attempt not made, no live lease), so two copies of a job never send it twice at once; then composes and sends it
 * and records the outcome. A failed send is retried on the webhook schedule (30 s, doubling, for 3 days) with the
 * same Message-ID; a worker that dies after taking the email leaves it to the job's redelivery once the lease ends.
 */
export async function sendEmail(job: EmailJob, random: () => number = Math.random): Promise<void> {
  const ctx = makeCtx(job.workspaceId, `email:${job.emailId}:${job.attempt}`);
  const email = await getItem<EmailItem>(emailKey(ctx, job.emailId), true);
  if (!email || email.status !== 'queued' || email.attempts !== job.attempt - 1) return;
  const now = ctx.clock.now();
  if (!(await take(email, job.attempt, now))) return;
  let outcome: { providerId: string } | { error: string };
  try {
    const raw = await composeEmail(ctx, email);
    outcome = { providerId: await (await emailTransport()).send(raw) };
  } catch (error) {
    logger.warn('email not sent', { email: email.id, attempt: job.attempt, error: error as Error });
    outcome = { error: String((error as Error)?.message ?? error).slice(0, 500) };
  }
  const at = ctx.clock.now();
  if ('providerId' in outcome) {
    const sent = await record(email, job.attempt, { status: 'sent', provider_message_id: outcome.providerId, sent_at: at.toISOString(), next_attempt_at: null, last_error: null });
    if (sent) await markInvoiceEmail(ctx, { ...email, status: 'sent' });
    return;
  }
  const next = nextAttemptAt(Date.parse(email.created_at), at.getTime(), job.attempt, random());
  const nextAt = next === undefined ? null : new Date(next).toISOString();
  const status = next === undefined ? 'failed' : 'queued';
  if (await record(email, job.attempt, { status, next_attempt_at: nextAt, last_error: outcome.error })) {
    if (status === 'queued') await queueEmailAttempt(ctx, { ...email, attempts: job.attempt, next_attempt_at: nextAt });
    else await markInvoiceEmail(ctx, { ...email, status });
  }
}

/** Takes the email for this attempt: false when another worker holds it or made the attempt already. */
const take = (email: EmailItem, attempt: number, now: Date): Promise<boolean> =>
  updateUnlessDone({
    Key: { pk: email.pk, sk: email.sk },
    UpdateExpression: 'SET lease_until = :until',
    ConditionExpression: '#status = :queued AND attempts = :previous AND (attribute_not_exists(lease_until) OR lease_until = :null OR lease_until < :now)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':until': new Date(now.getTime() + EMAIL_LEASE_MS).toISOString(), ':queued': 'queued', ':previous': attempt - 1, ':null': null, ':now': now.toISOString(),
    },
  });

/** The attempt's outcome, once: the attempt counter moves from the previous attempt to this one, and the lease ends. */
function record(email: EmailItem, attempt: number, changes: Partial<EmailItem> & Pick<EmailItem, 'status'>): Promise<boolean> {
  const names = Object.keys(changes);
  return updateUnlessDone({
    Key: { pk: email.pk, sk: email.sk },
    // The list entry's status moves with the email's, so `GET /v1/emails?status=` filters on the current one.
    UpdateExpression: `SET attempts = :attempt, lease_until = :null, lf.#status = :status, ${names.map((name) => `#${name} = :${name}`).join(', ')}`,
    ConditionExpression: 'attempts = :previous AND #status = :queued',
    ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
    ExpressionAttributeValues: {
      ...Object.fromEntries(names.map((name) => [`:${name}`, changes[name as keyof EmailItem]])), ':attempt': attempt, ':previous': attempt - 1, ':null': null, ':queued': 'queued',
    },
  });
}
