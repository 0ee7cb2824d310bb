import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { emailTransport } from '../../shared/email/transport';

/**
 * The SES transport against a stand-in of the SES v2 API on 127.0.0.1 (the SDK pointed at it by
 * AWS_ENDPOINT_URL_SESV2): what SendEmail carries is what SES's events give back (docs/emails.md, "Bounces").
 */
describe('the SES transport', () => {
  it('sends the raw message through the configuration set, tagged with the workspace and the email id, and answers SES\'s MessageId', async () => {
    const requests: { method?: string; url?: string; body: any }[] = [];
    const server = createServer((request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        requests.push({ method: request.method, url: request.url, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ MessageId: '0100018f-aaaa-bbbb-cccc-000000' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const env = { ...process.env };
    Object.assign(process.env, {
      EMAIL_TRANSPORT: 'ses', SES_CONFIGURATION_SET: 'BillingEmails', AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test',
      AWS_ENDPOINT_URL_SESV2: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    });
    try {
      const raw = Buffer.from('Subject: Invoice\r\n\r\nhello\r\n');
      const id = await (await emailTransport()).send({ id: 'eml_abc', workspaceId: 'ws_tags', raw, from: 'billing@acme.test', to: ['ap@buyer.test'], cc: ['cfo@buyer.test'], bcc: ['books@acme.test'] });
      expect(id).toBe('0100018f-aaaa-bbbb-cccc-000000');
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({ method: 'POST', url: '/v2/email/outbound-emails' });
      expect(requests[0]!.body).toEqual({
        FromEmailAddress: 'billing@acme.test',
        Destination: { ToAddresses: ['ap@buyer.test'], CcAddresses: ['cfo@buyer.test'], BccAddresses: ['books@acme.test'] },
        Content: { Raw: { Data: raw.toString('base64') } },
        ConfigurationSetName: 'BillingEmails',
        EmailTags: [{ Name: 'billing-workspace', Value: 'ws_tags' }, { Name: 'billing-email', Value: 'eml_abc' }],
      });
    } finally {
      process.env = env;
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
