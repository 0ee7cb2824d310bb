import type { DynamoDBRecord } from 'aws-lambda';
import { startEventRuntime, type EventRuntime } from '../../lib/local/event-runtime';
import { workspaceOf } from '../../shared/db/keys';
import { parseMime, partOfType, type MimePart } from './mime';
import { startSmtpCatcher, type ReceivedMail, type SmtpCatcher } from './smtp';

/**
 * What an email test needs beside its API: a real SMTP server that `EMAIL_TRANSPORT` points at (set before the API
 * starts), and the event runtime (stream → emails → delivery queue) for the given workspaces only, other test files
 * sharing the table. `seen` keeps every stream record handled, to deliver a batch again.
 */
export interface EmailEnv {
  smtp: SmtpCatcher;
  events: EventRuntime;
  seen: DynamoDBRecord[];
  /** The stream processed and every due job run: what is sent by now has reached the SMTP server. */
  settle(): Promise<void>;
  mailsTo(address: string): ReceivedMail[];
  close(): Promise<void>;
}

/** Step 1, before the API starts: the SMTP server, and emails on through it. */
export async function startSmtpForEmails(): Promise<SmtpCatcher> {
  const smtp = await startSmtpCatcher();
  process.env.EMAIL_TRANSPORT = smtp.url;
  return smtp;
}

/** Step 2, once the API (and so the table) is up: the event runtime for `workspaces`. */
export async function startEmailEnv(smtp: SmtpCatcher, workspaces: ReadonlySet<string>): Promise<EmailEnv> {
  const seen: DynamoDBRecord[] = [];
  const events = await startEventRuntime({
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    tableName: process.env.TABLE_NAME!,
    from: 'latest',
    accept: (record) => {
      const ours = workspaces.has(workspaceOf(record.dynamodb?.Keys?.pk?.S) ?? '');
      if (ours) seen.push(record);
      return ours;
    },
    deliveryTickMs: false,
  });
  return {
    smtp,
    events,
    seen,
    async settle() {
      await events.settle();
      await events.deliverDue();
    },
    mailsTo: (address) => smtp.received.filter((mail) => mail.recipients.includes(address)),
    async close() {
      await events.stop();
      await smtp.close();
      delete process.env.EMAIL_TRANSPORT;
    },
  };
}

/** The plain-text part, its lines as written (the MIME text's CRLF back to LF). */
export const textPart = (message: MimePart): string => partOfType(message, 'text/plain')!.body.toString('utf8').replace(/\r\n/g, '\n');
export const htmlPart = (message: MimePart): string => partOfType(message, 'text/html')!.body.toString('utf8');

/** The subjects of the mails `address` received, in order. */
export const subjectsTo = (env: EmailEnv, address: string): string[] => env.mailsTo(address).map((mail) => parseMime(mail.raw).headers.subject!);

/** The one mail to `address` whose subject is `subject`, parsed; fails unless exactly one such reached it. */
export function onlyMail(env: EmailEnv, address: string, subject: string): MimePart {
  const mails = env.mailsTo(address).map((mail) => parseMime(mail.raw)).filter((mail) => mail.headers.subject === subject);
  if (mails.length !== 1) throw new Error(`expected one mail "${subject}" to ${address}, got ${mails.length} among: ${subjectsTo(env, address).join(' | ')}`);
  return mails[0]!;
}

/** The link a mail carries (its action button): the same in the text and the HTML part. */
export function linkOf(message: MimePart): string {
  const links = [...htmlPart(message).matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  if (links.length !== 1) throw new Error(`expected one link, got ${links.join(', ')}`);
  expect(textPart(message)).toContain(links[0]!);
  return links[0]!;
}
