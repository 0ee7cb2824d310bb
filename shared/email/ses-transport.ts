import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { messageTags } from './message-tags';
import type { EmailTransport } from './transport';

/**
 * Amazon SES v2 `SendEmail` with the raw MIME message (so the PDF travels as an attachment). The destinations are
 * given explicitly: the raw message carries no Bcc header. `SES_CONFIGURATION_SET` (the stack sets it) names the
 * configuration set whose event destination reports deliveries, bounces and complaints (shared/email/feedback.ts);
 * the message tags name the email those reports are about.
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
          EmailTags: messageTags(email.workspaceId, email.id),
        }),
      );
      return answer.MessageId ?? '';
    },
  };
}
