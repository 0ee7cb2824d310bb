import { jest } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emailContent, type EmailMessage } from '../../shared/email/content';
import { EMAIL_KINDS, type EmailKind } from '../../shared/email/email-item';
import { INVOICE_KINDS, invoiceMessage, type InvoiceKind } from '../../shared/email/kinds/invoices';
import type { Wording } from '../../shared/email/kinds/kind';
import { cardMessage, portalMessage, trialMessage } from '../../shared/email/kinds/notices';
import { quoteMessage } from '../../shared/email/kinds/quotes';
import { emailTransport } from '../../shared/email/transport';
import type { Invoice } from '../../shared/domain/invoices/invoice';
import { translator, type Language } from '../../shared/i18n/catalog';
import { formatterFor } from '../../shared/i18n/format';
import { LANGUAGES } from '../../shared/schemas/value-sets';

const invoice = {
  id: 'inv_1', number: 'INV-42', currency: 'EUR', total_amount: 12_000, amount_due: 12_000, due_at: '2026-01-31T12:00:00.000Z',
  public_url: 'https://pay.example.com/pages/invoices/abc.def', dunning: { last_error_type: 'declined' },
} as Invoice;
const PORTAL = 'https://pay.example.com/pages/portal/ps.sig';
const QUOTE = 'https://pay.example.com/pages/quotes/q.sig';

/** Each kind's message about a sample document, and the one link it must carry. */
const sample = (kind: EmailKind, wording: Wording, createdAt = '2026-01-10T00:00:00.000Z'): [EmailMessage, string] => {
  if ((INVOICE_KINDS as readonly string[]).includes(kind)) return [invoiceMessage(kind as InvoiceKind, invoice, wording, { created_at: createdAt }), invoice.public_url];
  if (kind === 'quote_sent') return [quoteMessage({ number: 'Q-42', amount: 12_000, currency: 'EUR', sent_message: 'Hello\nsee you' }, QUOTE, wording), QUOTE];
  if (kind === 'trial_ending') return [trialMessage('2026-01-31T00:00:00.000Z', PORTAL, wording), PORTAL];
  if (kind === 'card_expiring') return [cardMessage({ brand: 'visa', last4: '4242', exp_month: 1, exp_year: 2026 }, PORTAL, wording), PORTAL];
  return [portalMessage('2026-01-31T13:00:00.000Z', PORTAL, wording), PORTAL];
};
const wordingOf = (language: Language, seller = 'Acme'): Wording => ({ t: translator(language), format: formatterFor(language), seller });
const content = (kind: EmailKind, language: Language = 'en', seller = 'Acme', brandColor: string | null = '#0055ff', createdAt?: string) => {
  const [message, link] = sample(kind, wordingOf(language, seller), createdAt);
  return { ...emailContent(message, { language, seller, brandColor, footer: translator(language)('email.footer', { seller }) }), link };
};

describe('email content', () => {
  it.each(LANGUAGES.flatMap((language) => EMAIL_KINDS.map((kind) => [language, kind] as const)))('%s %s: every text filled, the link, nothing remote', (language, kind) => {
    const { subject, text, html, link } = content(kind, language);
    for (const part of [subject, text, html]) expect(part).not.toMatch(/\{\w+\}/);
    expect(subject).toMatch(/INV-42|Q-42|Acme|4242/);
    expect(text).toContain(link);
    expect(html).toContain(`href="${link}"`);
    expect(html).toContain(`lang="${language}"`);
    // No image, script, stylesheet or font fetched: the only URL is the link.
    expect(html).not.toMatch(/<(img|script|link|iframe|object)\b|src=|url\(/i);
    expect(html.match(/https?:\/\/[^"\s<]+/g)).toEqual([link]);
  });

  it('says each kind apart in every language: no two kinds share a subject', () => {
    for (const language of LANGUAGES) expect(new Set(EMAIL_KINDS.map((kind) => content(kind, language).subject)).size).toBe(EMAIL_KINDS.length);
  });

  it('words a reminder before and after the due date apart, and tells the failed charge', () => {
    const before = content('invoice_reminder', 'en', 'Acme', null, '2026-01-10T00:00:00.000Z');
    const after = content('invoice_reminder', 'en', 'Acme', null, '2026-02-10T00:00:00.000Z');
    expect([before.subject, after.subject]).toEqual(['Reminder: invoice INV-42 from Acme', 'Overdue: invoice INV-42 from Acme']);
    expect(before.text).toContain('is awaiting payment: €120.00, due on January 31, 2026.');
    expect(after.text).toContain('is overdue: €120.00 was due on January 31, 2026.');
    expect(after.text).toContain('The last attempt to charge your payment method did not succeed.');
  });

  it('speaks the language: amounts and dates formatted for it', () => {
    expect(content('invoice_issued', 'fr').text).toMatch(/120,00\s€/); // Intl puts a no-break space there
    expect(content('invoice_issued', 'de').text).toContain('31. Januar 2026');
    expect(content('invoice_issued', 'en').text).toContain('€120.00');
    expect(content('card_expiring', 'de').text).toContain('31. Januar 2026'); // the last day of its expiry month
  });

  it('escapes the names and the quote\'s message, keeps its lines, and refuses a colour that is not one', () => {
    const { html, text } = content('invoice_issued', 'en', '<script>alert("x")</script>', 'red;background:url(https://evil.example/x.png)');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).not.toContain('evil.example');
    expect(text).toContain('<script>alert("x")</script>'); // the plain-text part shows it as written
    expect(content('quote_sent').text).toContain('Their message:\nHello\nsee you');
    expect(content('quote_sent').html).toContain('white-space:pre-line">Their message:\nHello\nsee you</p>');
  });
});

describe('the logo in emails', () => {
  it('is the inline attachment (cid:), never a remote image, with the seller\'s name as its alt text', () => {
    const [message, link] = sample('invoice_issued', wordingOf('en'));
    const { html } = emailContent(message, { language: 'en', seller: 'Acme', brandColor: null, footer: 'Acme', logoCid: 'logo@billing' });
    expect(html).toContain('<img src="cid:logo@billing" alt="Acme" height="48"');
    expect(html.match(/https?:\/\/[^"\s<]+/g)).toEqual([link]);
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
