import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { EmailTransport } from './transport';

/**
 * Amazon SES v2 `SendEmail` with the raw MIME message (so the PDF travels as an attachment). The destinations are
 * given explicitly: the raw message carries no Bcc header. `SES_CONFIGURATION_SET`, when set, tags every send.
 */
export function sesTransport(): EmailTransport {
  const ses = new SESv2Client({});
  const configurationSet = process.env.SES_CONFIGURATION_SET || undefined;
  return {
    async send(email) {
      const answer = await ses.send(
        new SendEmailCommand({
          FromEmailAddress: email.from,
          Destination: { ToAddresses: email.to, CcAddresses: email.cc, BccAddresses: email.bcc },
          Content: { Raw: { Data: email.raw } },
          ConfigurationSetName: configurationSet,
        }),
      );
      return answer.MessageId ?? '';
    },
  };
}
