import { SMTPServer } from 'smtp-server';

/** One message an SMTP server accepted: the envelope and the raw MIME text. */
export interface ReceivedMail {
  from: string;
  recipients: string[];
  raw: string;
  /** The id the server gave the message in its answer (`250 queued as <id>`), what a sender records as the provider's id. */
  queueId: string;
}

export interface SmtpCatcher {
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1 and a free port, accepting every message without
 * authentication or TLS, and keeping what it received, in order. A message is in `received` before the server
 * answers the DATA command, so a sender whose send resolved finds it there.
 */
export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const queueId = `Q${received.length + 1}`;
        received.push({
          queueId,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          recipients: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback(null, `queued as ${queueId}`);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
