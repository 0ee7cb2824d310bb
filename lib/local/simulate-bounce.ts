import { randomUUID } from 'node:crypto';
import type { Ctx } from '../../shared/context';
import { getItem } from '../../shared/db/items';
import { emailKey, type EmailItem } from '../../shared/email/email-item';
import { applyEmailFeedback, type SesEmailEvent } from '../../shared/email/feedback';
import { toEmail, type Email } from '../../shared/email/log';
import { publishedTags } from '../../shared/email/message-tags';
import { Conflict, NotFound } from '../../shared/errors';
import { httpHandler } from '../../shared/http/handler';
import type { RouteMeta } from '../../shared/http/route-meta';

/** No generated validator (the route is not in the route table): the id is checked here, as its schema would. */
const route: RouteMeta = { id: 'simulateEmailBounce', method: 'POST', path: '/dev/emails/{id}/bounce', scope: 'write', status: 200, validate: {} };
const EMAIL_ID = /^eml_[A-Za-z0-9_-]{1,60}$/;

const notFound = (id: string) => new NotFound('email', id);

/**
 * `POST /dev/emails/{id}/bounce` (`npm start` only): the caller's sent email bounces permanently. The notification is
 * the one SES would publish (its message id, the message tags, a Permanent bounce of the `to` address), applied by
 * the same code as SES's (shared/email/feedback.ts): the email `bounced`, the customer's `billing_email_status`,
 * `customer.email_bounced`, no more emails to that address.
 */
export async function simulateBounce(ctx: Ctx, id: string): Promise<Email> {
  if (!EMAIL_ID.test(id)) throw notFound(id);
  const email = await getItem<EmailItem>(emailKey(ctx, id), true);
  if (!email) throw notFound(id);
  if (!email.provider_message_id || !email.to) throw new Conflict(`The email ${id} is ${email.status}: only a sent email can bounce.`, 'email_not_sent');
  const now = ctx.clock.now().toISOString();
  const notification: SesEmailEvent = {
    eventType: 'Bounce',
    mail: { messageId: email.provider_message_id, timestamp: email.sent_at ?? now, destination: [email.to, ...email.cc], tags: publishedTags(ctx.workspaceId, email.id) },
    bounce: {
      bounceType: 'Permanent', bounceSubType: 'General', timestamp: now, feedbackId: `dev-${randomUUID()}`,
      bouncedRecipients: [{ emailAddress: email.to }],
    },
  };
  await applyEmailFeedback(notification);
  return toEmail((await getItem<EmailItem>(emailKey(ctx, id), true))!);
}

export const handler = httpHandler(route, ({ ctx, path }) => simulateBounce(ctx, (path as { id: string }).id));
