/**
 * Whether emails reach a customer's `billing_email`: `bounced` (a permanent bounce) or `complained` (marked as spam)
 * as the email provider reported it (shared/email/feedback.ts); no more email is sent to it until `billing_email`
 * changes, which sets it back to `ok`. Absent on customers older than it: `ok`. Its own module, without imports: the
 * route table's schemas read it, and must not load the table client.
 */
export const BILLING_EMAIL_STATUSES = ['ok', 'bounced', 'complained'] as const;
export type BillingEmailStatus = (typeof BILLING_EMAIL_STATUSES)[number];
