import type { Ctx } from '../context';
import { tableName } from '../db/client';
import { counterUpdate } from '../db/pagination';
import { transactWrite, type TransactItem } from '../db/transactions';
import type { CustomerItem } from '../domain/customers/customer';
import { EMAILS, newEmailKeys, type EmailItem, type EmailRefs } from './email-item';

export type EmailDraft = EmailRefs & Pick<EmailItem, 'id' | 'kind' | 'event_id' | 'customer_id' | 'to' | 'cc' | 'skipped_reason' | 'created_at'>;

/** A customer's addressees: `billing_email` (null: none) and `invoice_emails` in copy, without repeating the first. */
export function recipientsOf(customer: CustomerItem | null): Pick<EmailItem, 'to' | 'cc'> {
  const to = customer?.billing_email ?? null;
  return { to, cc: (customer?.invoice_emails ?? []).filter((address) => address.toLowerCase() !== to?.toLowerCase()) };
}

/** A new email item: queued to be sent now, or skipped (nothing will be sent) when the draft says why. */
export function newEmail(ctx: Ctx, draft: EmailDraft): EmailItem {
  const status = draft.skipped_reason ? 'skipped' : 'queued';
  return {
    ...newEmailKeys(ctx, { ...draft, status }),
    _type: 'email',
    ...draft,
    status,
    attempts: 0,
    next_attempt_at: draft.skipped_reason ? null : draft.created_at,
    lease_until: null,
    last_error: null,
    provider_message_id: null,
    sent_at: null,
  };
}

/**
 * Writes a new email with its list counter (`GET /v1/emails` totals), in one transaction conditioned on the email's
 * absence: a ConditionFailed means it exists already. Under an `Idempotency-Key` the transaction also records the
 * email as what the request created (docs/idempotency.md), so a replay finds it.
 */
export const insertEmail = (ctx: Ctx, email: EmailItem): Promise<void> => transactWrite(emailWrites(ctx, email));

/** The writes of a new email (insertEmail), for a transaction that writes it with what it is about. */
export const emailWrites = (ctx: Ctx, email: EmailItem): TransactItem[] => [
  { Put: { TableName: tableName(), Item: email, ConditionExpression: 'attribute_not_exists(pk)' } }, counterUpdate(ctx, EMAILS, 1),
];
