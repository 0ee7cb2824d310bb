import type { Ctx } from '../context';
import { listPage, type Page } from '../db/pagination';
import { emailFilters } from '../schemas/list-filters';
import { buildFilter } from '../schemas/list-query';
import { EMAIL_REFS, EMAILS, type EmailItem } from './email-item';

/** The public email: the item without its keys, lease and list fields; `type` is its kind. */
export interface Email {
  id: string;
  type: EmailItem['kind'];
  status: EmailItem['status'];
  skipped_reason: EmailItem['skipped_reason'];
  customer_id: string;
  /** What it is about, besides its customer (null: none). */
  invoice_id: string | null;
  quote_id: string | null;
  subscription_id: string | null;
  payment_method_id: string | null;
  portal_session_id: string | null;
  event_id: string | null;
  to: string | null;
  cc: string[];
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  provider_message_id: string | null;
  created_at: string;
  sent_at: string | null;
}

export const toEmail = (item: EmailItem): Email => ({
  id: item.id,
  type: item.kind,
  status: item.status,
  skipped_reason: item.skipped_reason,
  customer_id: item.customer_id,
  ...(Object.fromEntries(EMAIL_REFS.map((ref) => [ref, item[ref] ?? null])) as Record<(typeof EMAIL_REFS)[number], string | null>),
  event_id: item.event_id,
  to: item.to,
  cc: item.cc,
  attempts: item.attempts,
  next_attempt_at: item.next_attempt_at,
  last_error: item.last_error,
  provider_message_id: item.provider_message_id,
  created_at: item.created_at,
  sent_at: item.sent_at,
});

/** The workspace's emails from its list index (a Query of its own partition), oldest first unless sorted newest first. */
export const listEmails = (ctx: Ctx, query: { take: number; skip: number } & Record<string, unknown>): Promise<Page<Email>> =>
  listPage(ctx, EMAILS, { ...query, filter: buildFilter(emailFilters, query) }, toEmail);
