/**
 * The PDF's layout, read back from where poppler finds each word (test/support/pdf-boxes.ts), over a matrix of
 * documents: invoices (credited, paid, with a logo), credit notes, receipts and quotes in the 8 languages, with the built-in and the embedded (Factur-X) fonts, long
 * names, long three-decimal amounts and 100 lines over several pages. No two texts overlap, no word is cut (every
 * word printed is a word of the document's data, of its language's catalog or of a figure formatted for it), every
 * total stands on the row of its label, and a table running onto more pages repeats its heading.
 */
import type { Invoice } from '../../shared/domain/invoices/invoice';
import { renderInvoicePdf } from '../../shared/domain/invoices/pdf/render';
import { countryName, paymentWay, wordsFor, type Words } from '../../shared/domain/invoices/pdf/labels';
import { lineGross } from '../../shared/domain/invoices/pdf/table';
import { totalRows } from '../../shared/domain/invoices/pdf/totals';
import { catalog, type Language } from '../../shared/i18n/catalog';
import { LANGUAGES } from '../../shared/schemas/value-sets';
import { invoiceParties } from '../../shared/domain/invoices/pdf/header';
import type { Logo } from '../../shared/domain/invoices/pdf/logo';
import { receiptPayment, receiptSheet } from '../../shared/domain/invoices/pdf/receipt';
import { renderSheet, type Sheet } from '../../shared/domain/invoices/pdf/sheet';
import { quoteSheet } from '../../shared/domain/quotes/pdf';
import type { Quote } from '../../shared/domain/quotes/quote';
import { creditNote, invoiceFixture, line, paidInvoice, payment, quoteFixture, quoteLine, solidPng } from '../support/invoice-fixtures';
import { bareWord, onOneRow, overlaps, wordBoxes, wordsOf, type WordBox } from '../support/pdf-boxes';
import { installed } from '../support/system-tools';

const pdftotext = installed('pdftotext', '-v');
if (!pdftotext) console.warn('The PDF layout tests are skipped: pdftotext is not installed (apt-get install poppler-utils; .ci/run installs it).');
const describeWithPoppler = pdftotext ? describe : describe.skip;

const TIME_ZONE = 'Europe/Paris';

/** Partly paid and partly credited, with a long customer name and e-mail address. */
const creditedInvoice = (): Invoice => invoiceFixture({
  amount_credited: 12_000, amount_due: 32_249,
  customer: { ...invoiceFixture().customer, name: 'Globex Industrial Holdings International GmbH & Co. KG', email: 'accounts.payable.department@globex-international.example' },
});

/** Kuwaiti dinars, three decimals, amounts in the millions. */
function dinarInvoice(): Invoice {
  const big = line('lin_big', { name: 'Infrastructure', units_count: 1, unit_amount: 1_234_567_890, amount_excluding_tax: 1_234_567_890, tax_rate: 0, tax_amount: 0, amount: 1_234_567_890 });
  return invoiceFixture({
    currency: 'KWD', line_items: [big], coupons: [], discount_amount: 0, tax_rate: 0, tax_amount: 0, tax_scheme: 'exempt',
    amount_excluding_tax: 1_234_567_890, total_amount: 1_234_567_890, amount_paid: 0, amount_due: 1_234_567_890, amount_fixed: 0,
  });
}

/** 100 lines with long names: three pages or more. */
function longInvoice(): Invoice {
  const lines = Array.from({ length: 100 }, (_, i) => line(`lin_${i}`, {
    name: `Professional services, implementation of the enterprise integration, phase ${i + 1}`,
    units_count: 1_000 + i, unit_amount: 12_345, amount_excluding_tax: (1_000 + i) * 12_345, tax_rate: 20, tax_amount: (1_000 + i) * 2_469, amount: (1_000 + i) * 14_814,
  }));
  const sum = (pick: (l: (typeof lines)[number]) => number) => lines.reduce((s, l) => s + pick(l), 0);
  return invoiceFixture({
    line_items: lines, coupons: [], discount_amount: 0, amount_excluding_tax: sum((l) => l.amount_excluding_tax), tax_amount: sum((l) => l.tax_amount),
    total_amount: sum((l) => l.amount), amount_paid: 0, amount_due: sum((l) => l.amount), amount_fixed: 0,
  });
}

const DOCUMENTS: Record<string, () => Invoice> = {
  credited: creditedInvoice, paid: paidInvoice, credit_note: creditNote, dinars: dinarInvoice, hundred_lines: longInvoice, paid_with_logo: paidInvoice,
};

/** A wide logo (the seller's column is narrower than the box: it is fitted to the column). */
const LOGO: Logo = { body: solidPng(600, 120), contentType: 'image/png' };

/** Every string and number of a value, however deep. */
function leaves(value: unknown, into: { strings: string[]; numbers: number[] } = { strings: [], numbers: [] }) {
  if (typeof value === 'string') into.strings.push(value);
  else if (typeof value === 'number') into.numbers.push(value);
  else if (value && typeof value === 'object') for (const member of Object.values(value)) leaves(member, into);
  return into;
}

/** The words the document may print: its data's, its catalog's, and its figures formatted for its language. */
function vocabulary(invoice: Invoice, words: Words): Set<string> {
  const { strings, numbers } = leaves(invoice);
  const { f } = words;
  const texts = [
    ...strings,
    ...catalogTexts(words),
    ...totalRows(invoice, words).flatMap((row) => [f.money(row.amount, invoice.currency), f.money(-row.amount, invoice.currency)]),
    ...invoice.line_items.map((line) => f.money(lineGross(line), invoice.currency)),
    ...invoice.transactions.map((tx) => paymentWay(tx.payment_method, words)),
    ...strings.filter((s) => /^\d{4}-\d\d-\d\dT/.test(s)).map((s) => f.date(s)),
    ...numbers.flatMap((n) => [f.money(n, invoice.currency), f.money(-n, invoice.currency), f.number(n), f.percent(n), String(n)]),
    ...[invoice.customer.address?.country, invoice.seller.address?.country].filter((c): c is string => !!c).map((c) => countryName(c, words.language)),
  ];
  return new Set(texts.flatMap(wordsOf));
}

/** The words of the language's catalog, as written and in capitals (the parties' labels), with its placeholders out, and page numbers. */
const catalogTexts = (words: Words): string[] => [
  ...Object.values(catalog(words.language)).flatMap((message) => [message, message.toLocaleUpperCase(words.language)]).map((message) => message.replace(/\{\w+\}/g, ' ')),
  ...Array.from({ length: 20 }, (_, i) => String(i + 1)),
];

/** Printed words that are none of the document's: cut words ("Men", "Einzelprei") or pieces of one wrapped apart. */
const strangers = (boxes: WordBox[], known: Set<string>) => boxes.map((box) => bareWord(box.text)).filter((word) => word !== '' && !known.has(word));

describeWithPoppler('the PDF layout, measured from its text boxes', () => {
  const cases = LANGUAGES.flatMap((language) => Object.keys(DOCUMENTS).flatMap((document) => [false, true].map((facturx) => ({ language, document, facturx }))));

  test.each(cases)('$document in $language (embedded fonts: $facturx): no overlap, no cut word, totals on their rows', async ({ language, document, facturx }) => {
    const invoice = DOCUMENTS[document]!();
    const words = wordsFor(language as Language, TIME_ZONE);
    const logo = document === 'paid_with_logo' ? LOGO : null;
    const pdf = await renderInvoicePdf(invoice, { brandColor: '#336699', timezone: TIME_ZONE, logo }, { language: language as Language, ...(facturx && { facturx: { xml: '<rsm:CrossIndustryInvoice/>' } }) });
    const boxes = wordBoxes(pdf);
    expect(overlaps(boxes).map(([a, b]) => `${a.text} × ${b.text} (page ${a.page})`)).toEqual([]);
    expect(strangers(boxes, vocabulary(invoice, words))).toEqual([]);
    const unplaced = totalRows(invoice, words).map((row) => [row.label, words.f.money(row.minus ? -row.amount : row.amount, invoice.currency)]).filter(([label, amount]) => !onOneRow(boxes, label!, amount!));
    expect(unplaced).toEqual([]);
    const pages = Math.max(...boxes.map((b) => b.page));
    const heading = wordsOf(words.t('pdf.amount_excl_tax'));
    for (let page = 1; page <= pages; page++) {
      if (boxes.some((b) => b.page === page && b.text === invoice.line_items.at(-1)!.name.split(' ')[0])) {
        expect(boxes.filter((b) => b.page === page).map((b) => bareWord(b.text))).toEqual(expect.arrayContaining(heading));
      }
    }
    if (document === 'hundred_lines') expect(pages).toBeGreaterThanOrEqual(3);
    if (logo) expect(imageCount(pdf)).toBe(1);
  });

  /** A receipt of each payment of the paid invoice, and quotes: long (dinars in millions) and showing every value. */
  const SHEETS: Record<string, (words: Words) => { sheet: Sheet; amounts: [label: string, amount: string][] }> = {
    receipt_card: (words) => receiptCase(paidInvoice(), 0, words),
    receipt_transfer: (words) => receiptCase(paidInvoice(), 1, words),
    receipt_dinars: (words) => receiptCase({ ...dinarInvoice(), status: 'paid', amount_paid: 1_234_567_890, amount_due: 0, transactions: [{ ...payment('tra_kwd', 1_234_567_890, '2025-03-20T10:00:00.000Z'), currency: 'KWD' }] }, 0, words),
    quote: (words) => quoteCase(quoteFixture(), words),
    quote_dinars: (words) => quoteCase(quoteFixture({
      currency: 'KWD', amount: 1_234_567_890_000 + 90_000 * 4 + 250_000,
      line_items: [quoteLine('Infrastructure', { quantity: 1_000, amount_per_period: 102_880_657_500, amount: 1_234_567_890_000 }), ...quoteFixture().line_items.slice(1)],
    }), words),
  };

  function receiptCase(invoice: Invoice, index: number, words: Words) {
    const paid = invoice.transactions[index]!;
    const sheet = receiptSheet(invoice, receiptPayment(invoice, paid.id), words, invoiceParties(invoice, words));
    return { sheet, amounts: [[words.t('pdf.amount_paid'), words.f.money(paid.amount, paid.currency)], [words.t('pdf.invoice_total'), words.f.money(invoice.total_amount, invoice.currency)]] as [string, string][] };
  }

  function quoteCase(quote: Quote, words: Words) {
    const sheet = quoteSheet(quote, { seller: invoiceFixture().seller, customer: creditedInvoice().customer, entity: null }, words);
    const firstInvoice = quote.line_items.reduce((sum, l) => sum + l.amount_per_period, 0);
    return { sheet, amounts: [[words.t('quote.total_value'), words.f.money(quote.amount, quote.currency)], [words.t('quote.first_invoice'), words.f.money(firstInvoice, quote.currency)]] as [string, string][] };
  }

  const sheetCases = LANGUAGES.flatMap((language) => Object.keys(SHEETS).map((document) => ({ language, document })));

  test.each(sheetCases)('$document in $language: no overlap, no cut word, the API\'s amounts on their rows', async ({ language, document }) => {
    const words = wordsFor(language as Language, TIME_ZONE);
    const { sheet, amounts } = SHEETS[document]!(words);
    const pdf = await renderSheet(sheet, { brandColor: '#336699', words, logo: LOGO });
    const boxes = wordBoxes(pdf);
    expect(overlaps(boxes).map(([a, b]) => `${a.text} × ${b.text} (page ${a.page})`)).toEqual([]);
    const known = new Set([...leaves(sheet).strings, ...catalogTexts(words)].flatMap(wordsOf));
    expect(strangers(boxes, known)).toEqual([]);
    expect(amounts.filter(([label, amount]) => !onOneRow(boxes, label, amount))).toEqual([]);
    expect(imageCount(pdf)).toBe(1);
  });
});

/** How many images the PDF draws (its image XObjects). */
const imageCount = (pdf: Buffer): number => pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length ?? 0;
