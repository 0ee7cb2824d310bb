import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/** A composed email: its raw MIME bytes and the envelope (every address it goes to, Bcc included). */
export interface RawEmail {
  id: string;
  /** The workspace the email belongs to (SES tags the message with it and the id: shared/email/message-tags.ts). */
  workspaceId: string;
  raw: Buffer;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
}

export interface EmailTransport {
  /** Sends the email; resolves to the provider's id of it. Rejects when it was not accepted (the send is retried). */
  send(email: RawEmail): Promise<string>;
}

/**
 * `EMAIL_TRANSPORT` chooses where emails go: `ses` (Amazon SES v2, raw MIME; the stack sets it), `smtp://host:port`
 * (any SMTP server, e.g. a local catcher), `outbox` (an .eml file per email under `EMAIL_OUTBOX_DIR`, default
 * `.local/outbox/`; what `npm start` uses when nothing is set). Unset: no email is derived at all (tests that do not
 * set it, and a stack without an SES identity).
 */
export const emailTransportSetting = (): string | undefined => process.env.EMAIL_TRANSPORT || undefined;
export const emailsEnabled = (): boolean => emailTransportSetting() !== undefined;

let configured: { setting: string; transport: EmailTransport } | undefined;
let override: EmailTransport | undefined;

/** The process's transport for the current setting (built on first use: the SES client and nodemailer load then). */
export async function emailTransport(): Promise<EmailTransport> {
  if (override) return override;
  const setting = emailTransportSetting();
  if (!setting) throw new Error('EMAIL_TRANSPORT is not set: emails are off');
  if (configured?.setting !== setting) configured = { setting, transport: await build(setting) };
  return configured.transport;
}

/** Tests wrap the configured transport (e.g. to fail one send); `undefined` restores it. */
export function useEmailTransport(transport: EmailTransport | undefined): void {
  override = transport;
}

async function build(setting: string): Promise<EmailTransport> {
  if (setting === 'ses') return (await import('./ses-transport')).sesTransport();
  if (/^smtps?:\/\//.test(setting)) return smtpTransport(setting);
  if (setting === 'outbox') return outboxTransport(resolve(process.env.EMAIL_OUTBOX_DIR ?? '.local/outbox'));
  throw new Error(`EMAIL_TRANSPORT must be ses, outbox or an smtp:// URL, not ${setting}`);
}

async function smtpTransport(url: string): Promise<EmailTransport> {
  const { createTransport } = await import('nodemailer');
  const smtp = createTransport(url);
  return {
    async send(email) {
      const info = await smtp.sendMail({ envelope: { from: email.from, to: [...email.to, ...email.cc, ...email.bcc] }, raw: email.raw });
      // The server's answer (`250 … queued as …`): nodemailer's own messageId is a guess, not the raw message's.
      return String(info.response);
    },
  };
}

function outboxTransport(dir: string): EmailTransport {
  return {
    async send(email) {
      await mkdir(dir, { recursive: true });
      const path = resolve(dir, `${email.id}.eml`);
      await writeFile(path, email.raw);
      console.log(`email ${email.id} to ${email.to.join(', ')} written to ${path}`);
      return path;
    },
  };
}
