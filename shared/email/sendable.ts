import type { CustomerItem } from '../domain/customers/customer';
import type { EntityItem } from '../domain/invoicing-entities/invoicing-entity';
import { RuleViolation } from '../errors';
import { emailsEnabled } from './transport';

/*
 * The refusals of a request that asks for an email (`POST /v1/invoices/{id}/send`, a portal session with
 * `send_email`): 422, nothing written, when no email could go out.
 */

export function assertEmailsOn(): void {
  if (!emailsEnabled()) throw new RuleViolation('emails_off', 'This deployment sends no email: EMAIL_TRANSPORT is not set (on AWS, the stack has no SES identity).');
}

export function assertAddressed(customer: CustomerItem, entity: EntityItem): void {
  if (!customer.billing_email) throw new RuleViolation('no_recipient', `The customer ${customer.id} has no billing_email: set one to email it.`);
  if ((customer.billing_email_status ?? 'ok') !== 'ok') {
    throw new RuleViolation('recipient_bounced', `The customer ${customer.id}'s billing_email_status is ${customer.billing_email_status}: nothing is sent to its billing_email until that changes.`);
  }
  if (!entity.email_from) throw new RuleViolation('no_sender', `The invoicing entity ${entity.id} has no email_from: set one to email its customers.`);
}
