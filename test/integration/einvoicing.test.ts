/**
 * EN 16931 e-invoices downloaded through GET /v1/invoices/{id}/download?format=cii|ubl|facturx, for invoices and
 * credit notes made through the API, checked with the official validation rules (no fatal failed assertion), the
 * CII D16B schema, and qpdf for the Factur-X attachment.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { fatalOnes, validateEInvoices, validatorsAvailable, warnIfUnavailable, type Validation } from '../support/en16931';
import { installed } from '../support/system-tools';
import { readPdf } from '../support/pdf-text';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const FR_SELLER = {
  name: 'Acme SAS', country: 'FR', currency: 'EUR', address_line1: '12 rue de la Paix', city: 'Paris', zip_code: '75002', tax_id: 'FR40303265045',
  registration_number: '303265045', legal_form: 'SAS au capital de 10 000 EUR', invoice_late_fees: 'three times the French legal interest rate',
  bank_account: { iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP', account_name: 'Acme SAS' }, payment_terms: 'Payment within 30 days by transfer.',
  timezone: 'Europe/Paris',
};

async function download(client: Client, id: string, format: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(`${api.url}/v1/invoices/${id}/download?format=${format}`, { headers: { authorization: `Bearer ${client.token}` } });
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

const ok = async <T = any>(reply: Promise<{ status: number; body: any }>, status = 201): Promise<T> => {
  const { status: got, body } = await reply;
  expect([got, body.code, body.message]).toEqual([status, undefined, undefined]);
  return body;
};

interface Scenario {
  name: string;
  currency: 'EUR' | 'JPY' | 'KWD';
  customer: Record<string, unknown>;
  lines: (product: { usage: string }) => Record<string, unknown>[];
  invoice?: Record<string, unknown>;
  coupon?: Record<string, unknown>;
  /** The credit note's request (a partial credit), or a full credit when absent. */
  credit?: Record<string, unknown>;
  /** The VAT categories the e-invoice shows. */
  categories: string[];
}

const many = (count: number, unit: (i: number) => number) =>
  Array.from({ length: count }, (_, i) => ({ name: `Line ${i + 1}`, unit_amount: unit(i), quantity: 1 + (i % 7) }));

const SCENARIOS: Scenario[] = [
  {
    name: 'EUR, standard 20 %, percent coupon, a usage line',
    categories: ['E', 'S'],
    currency: 'EUR',
    customer: { type: 'corporate', registration_number: '552100554', tax_ids: [{ value: 'FR61552100554' }], billing_address: { line1: '1 avenue Foch', city: 'Lyon', zip: '69006', country: 'FR' } },
    lines: ({ usage }) => [
      { name: 'Plan', unit_amount: 4_999, quantity: 3 }, { price_configuration_id: usage, quantity: 37, transaction_amount: 1_337 }, { name: 'Setup', unit_amount: 1_001 },
      { name: 'Training', unit_amount: 12_000, quantity: 7, unit_code: 'HUR', tax_rate: 0, tax_category: 'E', tax_exemption_reason: 'Vocational training', tax_exemption_reason_code: 'VATEX-EU-132' },
    ],
    coupon: { name: 'Ten percent', type: 'percent', discount_percent: 12.5 },
  },
  {
    name: 'JPY, standard, 200 lines, amount coupon',
    categories: ['S'],
    currency: 'JPY',
    customer: { type: 'corporate', tax_ids: [{ value: 'FR61552100554' }], billing_address: { city: 'Lyon', country: 'FR' } },
    lines: () => many(200, (i) => 333 + 17 * i),
    coupon: { name: 'Yen off', type: 'amount', discount_amount: 10_001, currency: 'JPY' },
    credit: { amount: 50_001 },
  },
  {
    name: 'KWD, reverse charge, 1 line, amount coupon',
    categories: ['AE'],
    currency: 'KWD',
    customer: { type: 'corporate', tax_ids: [{ value: 'DE811907980' }], billing_address: { line1: 'Hauptstr. 1', city: 'Berlin', zip: '10115', country: 'DE' } },
    lines: () => [{ name: 'Licence', unit_amount: 12_345, quantity: 3 }],
    coupon: { name: 'Fils off', type: 'amount', discount_amount: 1_005, currency: 'KWD' },
    credit: { amount: 10_000 },
  },
  {
    name: 'EUR, exempt (customer outside the EU), 20 lines, usage line',
    categories: ['G'],
    currency: 'EUR',
    customer: { type: 'corporate', billing_address: { city: 'New York', country: 'US' } },
    lines: ({ usage }) => [...many(19, (i) => 1_999 + i), { price_configuration_id: usage, quantity: 11, transaction_amount: 999 }],
  },
  {
    name: 'KWD, manual rate 8.5 %, 30 lines, percent coupon',
    categories: ['S'],
    currency: 'KWD',
    customer: { type: 'corporate', tax_ids: [{ value: 'FR61552100554' }], billing_address: { country: 'FR' } },
    lines: () => many(30, (i) => 1_234 + 7 * i),
    invoice: { tax_rate: 8.5 },
    coupon: { name: 'A third off', type: 'percent', discount_percent: 33.33 },
    credit: { amount: 50_000 },
  },
  {
    name: 'JPY, standard, 1 line',
    categories: ['S'],
    currency: 'JPY',
    customer: { type: 'person', billing_address: { country: 'FR' }, billing_email: 'jane@example.test' },
    lines: () => [{ name: 'Book', unit_amount: 999, quantity: 1 }],
  },
];

interface Issued { client: Client; invoice: any; note: any }

async function issue(scenario: Scenario): Promise<Issued> {
  const client = await api.client();
  await withEntity(client, { ...FR_SELLER, currency: scenario.currency });
  const product = await ok(client.post('/v1/products', { name: 'API calls', type: 'dynamic' }));
  const usage = await ok(client.post('/v1/price-configurations', { product_id: product.id, currency: scenario.currency, type: 'bps', prices: [{ from: 1, to: null, percentage: 1.5 }] }));
  const customer = await ok(client.post('/v1/customers', { name: 'Globex Corp', currency: scenario.currency, ...scenario.customer }));
  const coupon = scenario.coupon ? await ok(client.post('/v1/coupons', scenario.coupon)) : null;
  const invoice = await ok(client.post('/v1/invoices', {
    customer_id: customer.id, status: 'to_pay', reference: 'BUYER-REF-7', purchase_order: 'PO-2026-11', line_items: scenario.lines({ usage: usage.id }),
    ...(coupon && { coupon_ids: [coupon.id] }), ...scenario.invoice,
  }));
  const note = await ok(client.post(`/v1/invoices/${invoice.id}/credit-notes`, { refund_method: 'none', ...scenario.credit }));
  return { client, invoice, note };
}

warnIfUnavailable('EN 16931 validation of downloaded e-invoices');
const withValidators = validatorsAvailable ? describe : describe.skip;

interface Downloaded { scenario: Scenario; document: any; cii: string; ubl: string }

withValidators('EN 16931: invoices and credit notes pass the official rules', () => {
  let downloaded: Downloaded[] = [];
  let validations: { cii: Validation; ubl: Validation }[] = [];
  let control: { cii: Validation; ubl: Validation };

  // Every scenario's invoice and credit note, downloaded through the route, then validated in one batch.
  beforeAll(async () => {
    const issued = await Promise.all(SCENARIOS.map(async (scenario) => ({ scenario, ...(await issue(scenario)) })));
    downloaded = await Promise.all(issued.flatMap(({ scenario, client, invoice, note }) => [invoice, note].map(async (document) => {
      const [cii, ubl] = await Promise.all([download(client, document.id, 'cii'), download(client, document.id, 'ubl')]);
      expect([cii.status, cii.type, ubl.status, ubl.type]).toEqual([200, 'application/xml', 200, 'application/xml']);
      return { scenario, document, cii: cii.bytes.toString('utf8'), ubl: ubl.bytes.toString('utf8') };
    })));
    // A control that must fail: the first invoice with a wrong grand total (BR-CO-15 in both syntaxes), and in CII an
    // element the schema does not have.
    const first = downloaded[0]!;
    const tampered = {
      cii: first.cii.replace(/<ram:GrandTotalAmount>[^<]+</, '<ram:GrandTotalAmount>999999.99<').replace('<ram:TypeCode>380', '<ram:Bogus/><ram:TypeCode>380'),
      ubl: first.ubl.replace(/<cbc:TaxInclusiveAmount currencyID="EUR">[^<]+</, '<cbc:TaxInclusiveAmount currencyID="EUR">999999.99<'),
    };
    const all = await validateEInvoices([...downloaded, tampered]);
    control = all.pop()!;
    validations = all;
  }, 120_000);

  it('catch a wrong total and an unknown element (the control document fails BR-CO-15 and the XSD)', () => {
    expect(control.cii.schemaErrors!.join('\n')).toMatch(/Bogus.*not expected/);
    expect(fatalOnes(control.cii.failures).some((f) => f.startsWith('BR-CO-15'))).toBe(true);
    expect(fatalOnes(control.ubl.failures).some((f) => f.startsWith('BR-CO-15'))).toBe(true);
  });

  it.each(SCENARIOS.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    const mine = downloaded.map((d, i) => ({ ...d, validation: validations[i]! })).filter((d) => d.scenario === scenario);
    expect(mine.map((d) => d.document.type)).toEqual(['invoice', 'credit_note']);
    expect(mine[0]!.document.coupons.length > 0).toBe(scenario.coupon !== undefined);
    for (const { document, cii, validation } of mine) {
      const found = { cii: fatalOnes(validation.cii.failures), ubl: fatalOnes(validation.ubl.failures), xsd: validation.cii.schemaErrors };
      expect({ document: document.number, ...found }).toEqual({ document: document.number, cii: [], ubl: [], xsd: [] });
      // The e-invoice states the invoice's own amounts.
      const total = (/<ram:GrandTotalAmount>([^<]+)</.exec(cii) ?? [])[1];
      const exponent = { EUR: 2, JPY: 0, KWD: 3 }[scenario.currency];
      expect(total).toBe((document.total_amount / 10 ** exponent).toFixed(Math.min(exponent, 2)));
      expect(cii).toContain(`<ram:TypeCode>${document.type === 'credit_note' ? 381 : 380}</ram:TypeCode>`);
      if (document.type === 'credit_note') expect(cii).toContain(`<ram:IssuerAssignedID>${mine[0]!.document.number}</ram:IssuerAssignedID>`);
    }
    const categories = [...new Set([...mine[0]!.cii.matchAll(/<ram:CategoryCode>(\w+)</g)].map((m) => m[1]))].sort();
    expect(categories).toEqual(scenario.categories);
  });
});

const qpdf = installed('qpdf', '--version');
const pdffonts = installed('pdffonts', '-v');
if (!pdffonts) console.warn('Factur-X font check skipped: pdffonts is not installed (apt-get install poppler-utils; .ci/run installs it).');
if (!qpdf) console.warn('Factur-X attachment check skipped: qpdf is not installed (apt-get install qpdf; .ci/run installs it).');

describe('Factur-X', () => {
  (qpdf ? it : it.skip)('is a PDF/A-3 whose factur-x.xml is the CII, the default download of an entity that enables it', async () => {
    const client = await api.client();
    await withEntity(client, { ...FR_SELLER, facturx_enabled: true });
    const customer = await ok(client.post('/v1/customers', { name: 'Globex Corp', currency: 'EUR', type: 'corporate', tax_ids: [{ value: 'FR61552100554' }], billing_address: { country: 'FR' } }));
    const invoice = await ok(client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Consulting day', unit_amount: 80_000, quantity: 2 }] }));
    const response = await fetch(`${api.url}/v1/invoices/${invoice.id}/download`, { headers: { authorization: `Bearer ${client.token}` } });
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    const pdf = Buffer.from(await response.arrayBuffer());
    const dir = mkdtempSync(join(tmpdir(), 'facturx-'));
    writeFileSync(join(dir, 'invoice.pdf'), pdf);
    const attached = execFileSync('qpdf', [`--show-attachment=factur-x.xml`, join(dir, 'invoice.pdf')]).toString('utf8');
    const cii = (await download(client, invoice.id, 'cii')).bytes.toString('utf8');
    expect(attached).toBe(cii);
    const raw = pdf.toString('latin1');
    for (const marker of ['/AFRelationship /Data', '/OutputIntents', 'GTS_PDFA1', '<pdfaid:part>3</pdfaid:part>', '<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>', '<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>']) {
      expect([marker, raw.includes(marker)]).toEqual([marker, true]);
    }
    // The text of the embedded fonts is read back through their ToUnicode maps (poppler); the plain PDF's with ours.
    const mentions = ['Registration no. 303265045', 'SAS au capital de 10 000 EUR', 'IBAN: FR76 3000 6000 0112 3456 7890 189', 'three times the French legal interest rate', '40 EUR'];
    const plain = await download(client, invoice.id, 'pdf');
    const texts = [readPdf(plain.bytes).text, ...(pdffonts ? [execFileSync('pdftotext', [join(dir, 'invoice.pdf'), '-']).toString('utf8')] : [])];
    for (const text of texts) {
      for (const mention of mentions) expect([mention, text.replace(/\s+/g, ' ').includes(mention)]).toEqual([mention, true]);
    }
    if (pdffonts) {
      // PDF/A: every font embedded.
      const fonts = execFileSync('pdffonts', [join(dir, 'invoice.pdf')]).toString('utf8').split('\n').slice(2).filter((l) => l.trim() !== '');
      expect(fonts.length).toBeGreaterThan(0);
      for (const font of fonts) expect([font, /\byes\s+yes\s+yes\b/.test(font)]).toEqual([font, true]);
    }
    expect(plain.bytes.toString('latin1')).not.toContain('factur-x.xml');
  });

  it('keeps the e-invoicing members of an entity, and refuses malformed ones', async () => {
    const client = await api.client();
    const entity = await withEntity(client, FR_SELLER);
    expect(entity).toMatchObject({ legal_form: FR_SELLER.legal_form, bank_account: FR_SELLER.bank_account, payment_terms: FR_SELLER.payment_terms });
    expect('registration_scheme' in entity).toBe(false);
    const updated = await ok(client.put(`/v1/invoicing-entities/${entity.id}`, { registration_scheme: '0002', facturx_enabled: true, bank_account: null }), 200);
    expect(updated).toMatchObject({ registration_scheme: '0002', facturx_enabled: true, bank_account: null, legal_form: FR_SELLER.legal_form });
    const bad = await client.put(`/v1/invoicing-entities/${entity.id}`, { bank_account: { iban: 'not an iban' } });
    expect([bad.status, bad.body.errors?.[0]?.path]).toEqual([400, 'body.bank_account.iban']);
    const customer = await ok(client.post('/v1/customers', { name: 'Globex Corp', currency: 'EUR', billing_address: { country: 'FR' } }));
    const line = await client.post('/v1/invoices', { customer_id: customer.id, line_items: [{ name: 'Day', unit_amount: 100, tax_category: 'X' }] });
    expect([line.status, line.body.errors?.[0]?.path]).toEqual([400, 'body.line_items.0.tax_category']);
  });

  it('refuses e-invoices of drafts with a 422 that says why', async () => {
    const client = await api.client();
    await withEntity(client, FR_SELLER);
    const customer = await ok(client.post('/v1/customers', { name: 'Globex Corp', currency: 'EUR', billing_address: { country: 'FR' } }));
    const draft = await ok(client.post('/v1/invoices', { customer_id: customer.id, line_items: [{ name: 'Day', unit_amount: 100 }] }));
    const reply = await client.get(`/v1/invoices/${draft.id}/download?format=ubl`);
    expect([reply.status, reply.body.code]).toEqual([422, 'einvoice_unavailable']);
    expect((await client.get(`/v1/invoices/${draft.id}/download?format=xml`)).status).toBe(400);
  });
});
