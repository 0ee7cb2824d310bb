/**
 * `npm run docs:images`: the first page of each document kind (invoice, credit note, receipt, quote), rendered by
 * the service's own code from the test fixtures with a logo, as PNG at 100 dpi into docs/images/ (poppler's
 * pdftoppm), for docs/invoice-pdf.md. Run it after changing the layout and commit the pictures.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invoiceParties } from '../shared/domain/invoices/pdf/header';
import { wordsFor } from '../shared/domain/invoices/pdf/labels';
import type { Logo } from '../shared/domain/invoices/pdf/logo';
import { receiptSheet } from '../shared/domain/invoices/pdf/receipt';
import { renderInvoicePdf } from '../shared/domain/invoices/pdf/render';
import { renderSheet } from '../shared/domain/invoices/pdf/sheet';
import { quoteSheet } from '../shared/domain/quotes/pdf';
import { creditNote, paidInvoice, quoteFixture, solidPng } from '../test/support/invoice-fixtures';

const OUT = 'docs/images';
const BRAND = '#336699';
const TIME_ZONE = 'Europe/Paris';
const logo: Logo = { body: solidPng(360, 90, [51, 102, 153]), contentType: 'image/png' };
const words = wordsFor('en', TIME_ZONE);
const paid = paidInvoice();

const documents: Record<string, () => Promise<Buffer>> = {
  'invoice-pdf': () => renderInvoicePdf(paid, { brandColor: BRAND, timezone: TIME_ZONE, logo }),
  'credit-note-pdf': () => renderInvoicePdf(creditNote(), { brandColor: BRAND, timezone: TIME_ZONE, logo }),
  'receipt-pdf': () => renderSheet(receiptSheet(paid, paid.transactions[0]!, words, invoiceParties(paid, words)), { brandColor: BRAND, logo, words }),
  'quote-pdf': () => renderSheet(quoteSheet(quoteFixture(), { seller: paid.seller, customer: paid.customer, entity: null }, words), { brandColor: BRAND, logo, words }),
};

const work = mkdtempSync(join(tmpdir(), 'doc-images-'));
try {
  for (const [name, render] of Object.entries(documents)) {
    const pdf = join(work, `${name}.pdf`);
    writeFileSync(pdf, await render());
    execFileSync('pdftoppm', ['-png', '-r', '100', '-f', '1', '-l', '1', '-singlefile', pdf, join(OUT, name)]);
    console.log(`${OUT}/${name}.png`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
