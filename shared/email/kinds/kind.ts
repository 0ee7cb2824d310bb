import type { Ctx } from '../../context';
import type { CustomerItem } from '../../domain/customers/customer';
import type { EntityItem } from '../../domain/invoicing-entities/invoicing-entity';
import type { Translate } from '../../i18n/catalog';
import type { Formatter } from '../../i18n/format';
import type { EmailMessage } from '../content';
import type { EmailItem, EmailRefs, SkipReason } from '../email-item';

/** Whom an event's email is for, read from the event's data: its customer, its entity and what it names. */
export interface EmailTarget extends EmailRefs {
  customer_id: string;
  /** The invoicing entity sending it; absent: the customer's. */
  entity_id?: string;
  /** Its addressees when they are not the customer's (a quote's `sent_to`). */
  recipients?: Pick<EmailItem, 'to' | 'cc'>;
}

/** An event's data: the resource as the API returns it (read loosely: each kind checks what it needs). */
export type EventData = Record<string, any>;

/** How one kind is decided from its event: the target (undefined: the event calls for no email), and a reason of its own not to send it. */
export interface EventEmail {
  target(data: EventData, emailId: string): EmailTarget | undefined;
  skip?(data: EventData, customer: CustomerItem, entity: EntityItem): SkipReason | null;
}

export interface Wording {
  t: Translate;
  format: Formatter;
  seller: string;
}

export interface Attachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** A kind's email as sent now: from which entity, what it says, what is attached. */
export interface Rendered {
  entityId: string;
  message(wording: Wording): EmailMessage;
  attachments: Attachment[];
}

export type Render = (ctx: Ctx, email: EmailItem) => Promise<Rendered>;
