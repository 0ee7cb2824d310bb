import { createHash } from 'node:crypto';
import type { Ctx } from '../context';
import { collectionKey } from '../db/keys';

/** What the service emails customers, each derived from one event (docs/emails.md). */
export type EmailKind = 'invoice_issued' | 'invoice_paid' | 'invoice_reminder';

/**
 * One email of one event to one addressee: `WS#<ws>#EML` / `eml_<hash of event id and address>`. Written
 * conditionally by the stream handler before anything is sent, so a redelivered batch finds it and sends nothing new.
 * `attempts` only grows, by a write conditioned on its previous value; `lease_until` is set by the worker sending it,
 * so a duplicate job does not send it at the same time, and a worker that died mid-send leaves it to the retry.
 */
export interface EmailItem {
  pk: string;
  sk: string;
  _type: 'email';
  id: string;
  kind: EmailKind;
  event_id: string;
  invoice_id: string;
  customer_id: string;
  to: string;
  cc: string[];
  status: 'queued' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  lease_until: string | null;
  last_error: string | null;
  /** The transport's id of the sent message (SES MessageId, the SMTP server's answer, the .eml path). */
  provider_message_id: string | null;
  created_at: string;
  sent_at: string | null;
}

export const EMAILS = 'EML';
export const emailKey = (ctx: Ctx, id: string) => collectionKey(ctx, EMAILS, id);

/** Stable per (event, addressee): the same event and address always name the same email. */
export const emailId = (eventId: string, to: string): string =>
  `eml_${createHash('sha256').update(`${eventId}#${to.toLowerCase()}`).digest('base64url').slice(0, 26)}`;

/** The RFC 5322 Message-ID of an email: the same on every attempt, so a receiver can tell a retry from a new email. */
export const messageIdHeader = (id: string, from: string): string => `<${id}@${from.split('@')[1] ?? 'billing-api.invalid'}>`;
