import { jest } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emailContent } from '../../shared/email/content';
import { EMAIL_KINDS } from '../../shared/email/email-item';
import { emailTransport } from '../../shared/email/transport';
import type { Invoice } from '../../shared/domain/invoices/invoice';
import { LANGUAGES } from '../../shared/schemas/value-sets';

const invoice = {
  id: 'inv_1', number: 'INV-42', currency: 'EUR', total_amount: 12_000, amount_due: 12_000, due_at: '2026-01-31T12:00:00.000Z',
  public_url: 'https://pay.example.com/pages/invoices/abc.def',
} as Invoice;
const content = (over: Partial<Parameters<typeof emailContent>[0]> = {}) =>
  emailContent({ kind: 'invoice_issued', invoice, language: 'en', seller: 'Acme', brandColor: '#0055ff', ...over });

describe('email content', () => {
  it.each(LANGUAGES.flatMap((language) => EMAIL_KINDS.map((kind) => [language, kind] as const)))('%s %s: every text filled, the link, nothing remote', (language, kind) => {
    const { subject, text, html } = content({ language, kind });
    for (const part of [subject, text, html]) expect(part).not.toMatch(/\{\w+\}/);
    expect(subject).toContain('INV-42');
    expect(text).toContain(invoice.public_url);
    expect(html).toContain(`href="${invoice.public_url}"`);
    expect(html).toContain(`lang="${language}"`);
    // No image, script, stylesheet or font fetched: the only URL is the link.
    expect(html).not.toMatch(/<(img|script|link|iframe|object)\b|src=|url\(/i);
    expect(html.match(/https?:\/\/[^"\s<]+/g)).toEqual([invoice.public_url]);
  });

  it('speaks the language: amounts and dates formatted for it', () => {
    expect(content({ language: 'fr' }).text).toMatch(/120,00\s€/); // Intl puts a no-break space there
    expect(content({ language: 'de' }).text).toContain('31. Januar 2026');
    expect(content({ language: 'en' }).text).toContain('€120.00');
  });

  it('escapes the names and refuses a colour that is not one', () => {
    const { html, text } = content({ seller: '<script>alert("x")</script>', brandColor: 'red;background:url(https://evil.example/x.png)' });
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).not.toContain('evil.example');
    expect(text).toContain('<script>alert("x")</script>'); // the plain-text part shows it as written
  });
});

describe('the outbox transport', () => {
  it('writes each email as <id>.eml under EMAIL_OUTBOX_DIR', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const env = { ...process.env };
    process.env.EMAIL_TRANSPORT = 'outbox';
    process.env.EMAIL_OUTBOX_DIR = dir;
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const raw = Buffer.from('Subject: hi\r\n\r\nhello\r\n');
      const where = await (await emailTransport()).send({ id: 'eml_x', workspaceId: 'ws_x', raw, from: 'a@b.test', to: ['c@d.test'], cc: [], bcc: [] });
      expect(where).toBe(join(dir, 'eml_x.eml'));
      expect(readFileSync(where)).toEqual(raw);
      expect(log).toHaveBeenCalledWith(expect.stringContaining(where));
    } finally {
      log.mockRestore();
      process.env = env;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
