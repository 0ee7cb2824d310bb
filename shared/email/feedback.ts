import { makeCtx, type Ctx } from '../context';
import { tableName } from '../db/client';
import { getItem } from '../db/items';
import { ConditionFailed, transactWrite, type TransactItem } from '../db/transactions';
import type { BillingEmailStatus } from '../domain/customers/billing-email-status';
import { customerItemKey, type CustomerItem } from '../domain/customers/customer';
import { WORKSPACE_ID_PATTERN } from '../http/request-context';
import { emailKey, type EmailItem, type EmailStatus } from './email-item';
import { EMAIL_STEP, markInvoiceEmail } from './invoice-email-status';
import { EMAIL_TAG, WORKSPACE_TAG } from './message-tags';

/**
 * What SES publishes about a sent email through a configuration set's event destination (the `detail` of its
 * EventBridge event; the same object SES publishes to SNS): the members read here. `mail.tags` holds the message tags
 * the email was sent with (shared/email/message-tags.ts), besides SES's own (`ses:configuration-set`, …).
 */
export interface SesEmailEvent {
  eventType: string;
  mail: { messageId: string; timestamp?: string; destination?: string[]; tags?: Record<string, string[]> };
  delivery?: { recipients: string[]; timestamp: string };
  bounce?: { bounceType: 'Permanent' | 'Transient' | 'Undetermined'; bounceSubType?: string; bouncedRecipients: { emailAddress: string }[]; timestamp: string; feedbackId?: string };
  complaint?: { complainedRecipients: { emailAddress: string }[]; timestamp: string; feedbackId?: string };
}

/** What a notification did: changed the email (`applied`), or nothing, and why. */
export type FeedbackOutcome =
  /** Its step was reached already (the same notification delivered again): the invoice is marked again, nothing else. */
  | 'already_applied'
  | 'applied'
  /** A later step was reported first (a delivery after the bounce): it is ignored. */
  | 'superseded'
  /** Not about an email of ours as recorded: no tags, an unknown email, or another message id (an earlier copy). */
  | 'not_ours'
  /** About a copy (cc) or blind copy, not the customer's `billing_email` the email's status stands for. */
  | 'other_recipient'
  /** An event type that changes nothing (Send, Open, DeliveryDelay, …). */
  | 'ignored';

/**
 * The email is still being sent: the provider answered, its message id is not recorded yet (a report can outrun that
 * write by a few milliseconds, or the worker died before it). Thrown so the notification is tried again later.
 */
export class EmailNotRecordedYet extends Error {
  constructor(emailId: string) {
    super(`The email ${emailId} is not recorded as sent yet: its report is retried.`);
  }
}

const STATUS_OF_EVENT: Partial<Record<string, Extract<EmailStatus, 'delivered' | 'bounced' | 'complained'>>> = {
  Delivery: 'delivered',
  Bounce: 'bounced',
  Complaint: 'complained',
};

/** Statuses an email may leave for `target`: sent, or an earlier step. */
const priorsOf = (target: EmailStatus): EmailStatus[] =>
  (['sent', 'delivered', 'bounced'] as const).filter((status) => EMAIL_STEP[status] < EMAIL_STEP[target]);

const sameAddress = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

/** Addresses the notification is about. */
const recipientsOf = (event: SesEmailEvent): string[] =>
  event.delivery?.recipients ?? event.bounce?.bouncedRecipients.map((r) => r.emailAddress) ?? event.complaint?.complainedRecipients.map((r) => r.emailAddress) ?? [];

/** What the customer's `billing_email_status` becomes: a complaint, or a bounce SES calls permanent (hard). */
const customerStatusOf = (event: SesEmailEvent): BillingEmailStatus | null =>
  event.eventType === 'Complaint' ? 'complained' : event.eventType === 'Bounce' && event.bounce?.bounceType === 'Permanent' ? 'bounced' : null;

/**
 * Applies a delivery, bounce or complaint that SES (or `POST /dev/emails/{id}/bounce`) reports, each effect once:
 * the email's status moves forward (`delivered` → `bounced` → `complained`; never back: a delivery reported after the
 * bounce is ignored), and a permanent bounce or a complaint from the customer's current `billing_email` sets its
 * `billing_email_status` in the same transaction (its stream record then emits `customer.email_bounced`, once: only
 * a move from `ok` is written). The email is found by the workspace and email id of its message tags, and must carry
 * the notification's message id: a notification names no other email, of its workspace or another.
 */
export async function applyEmailFeedback(event: SesEmailEvent): Promise<FeedbackOutcome> {
  const target = STATUS_OF_EVENT[event.eventType];
  if (!target) return 'ignored';
  const workspaceId = event.mail.tags?.[WORKSPACE_TAG]?.[0];
  const emailId = event.mail.tags?.[EMAIL_TAG]?.[0];
  if (!workspaceId || !WORKSPACE_ID_PATTERN.test(workspaceId) || !emailId) return 'not_ours';
  const ctx = makeCtx(workspaceId, `ses:${event.mail.messageId}`);
  // A transaction whose conditions failed met a change made since the reads (another notification, the customer's
  // address): read again and decide anew. A few rounds at most: each failure is someone else's progress.
  for (let round = 0; ; round += 1) {
    try {
      return await applyOnce(ctx, emailId, target, event);
    } catch (error) {
      if (!(error instanceof ConditionFailed) || round === 3) throw error;
    }
  }
}

async function applyOnce(ctx: Ctx, emailId: string, target: 'delivered' | 'bounced' | 'complained', event: SesEmailEvent): Promise<FeedbackOutcome> {
  const email = await getItem<EmailItem>(emailKey(ctx, emailId), true);
  if (!email) return 'not_ours';
  if (email.provider_message_id !== event.mail.messageId) {
    if (email.status === 'queued') throw new EmailNotRecordedYet(email.id);
    return 'not_ours';
  }
  if (!recipientsOf(event).some((address) => sameAddress(address, email.to))) return 'other_recipient';
  if (EMAIL_STEP[email.status] >= EMAIL_STEP[target]) {
    if (email.status !== target) return 'superseded';
    // Applied before, maybe by a run that died before marking the invoice.
    await markInvoiceEmail(ctx, email);
    return 'already_applied';
  }
  const customerStatus = customerStatusOf(event);
  const customer = customerStatus ? await getItem<CustomerItem>(customerItemKey(ctx, email.customer_id), true) : undefined;
  const flag = customerStatus && customer && !customer.deleted_at && sameAddress(customer.billing_email, email.to) && (customer.billing_email_status ?? 'ok') === 'ok';
  const now = ctx.clock.now().toISOString();
  const writes: TransactItem[] = [emailUpdate(email, target)];
  if (flag) writes.push(customerUpdate(customer, customerStatus, now));
  await transactWrite(writes);
  await markInvoiceEmail(ctx, { ...email, status: target });
  return 'applied';
}

/** The email's step, from one it may leave (its list entry's status with it, so `GET /v1/emails?status=` sees it). */
function emailUpdate(email: EmailItem, target: EmailStatus): TransactItem {
  const priors = priorsOf(target);
  return {
    Update: {
      TableName: tableName(),
      Key: { pk: email.pk, sk: email.sk },
      UpdateExpression: 'SET #status = :target, lf.#status = :target',
      ConditionExpression: `#status IN (${priors.map((_, i) => `:prior${i}`).join(', ')})`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':target': target, ...Object.fromEntries(priors.map((status, i) => [`:prior${i}`, status])) },
    },
  };
}

/**
 * The customer's `billing_email_status`, from `ok` and while `billing_email` is the address that bounced. A new
 * version, since updateCustomer writes the whole item conditioned on the one it read: a concurrent update fails and
 * is retried on this one, instead of writing `ok` back.
 */
const customerUpdate = (customer: CustomerItem, status: BillingEmailStatus, now: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: { pk: customer.pk, sk: customer.sk },
    UpdateExpression: 'SET billing_email_status = :status, updated_at = :now, #version = #version + :one',
    ConditionExpression: 'billing_email = :address AND (attribute_not_exists(billing_email_status) OR billing_email_status = :ok)',
    ExpressionAttributeNames: { '#version': '_version' },
    ExpressionAttributeValues: { ':status': status, ':now': now, ':one': 1, ':address': customer.billing_email, ':ok': 'ok' },
  },
});
