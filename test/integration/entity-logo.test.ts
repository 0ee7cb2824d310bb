/**
 * The entity's logo_url through the API: fetched once from a local https server (loopback allowed and its throwaway
 * certificate trusted through LOGO_FETCH_* only, as the OAuth metadata tests do), checked, stored, drawn on the
 * invoice, receipt and quote PDFs and the invoice page, still there once its source is gone; what cannot be used is
 * a 422 that changes nothing.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { solidPng } from '../support/invoice-fixtures';
import { quoteOf } from '../support/route-fixtures/quotes';
import { withEnv } from '../support/oauth';
import { readPdf } from '../support/pdf-text';
import { testCertificate } from '../support/test-certificate';

/** A 40 × 16 JPEG. */
const JPEG = Buffer.from('/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjL/wAARCAAQACgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDmqKKK+SP0gKKKKACiiigD/9k=', 'base64');
const PNG = solidPng(240, 60);
const SVG = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');

/** What the logo server answers, by path: status, content type, body. */
const ROUTES: Record<string, [number, string, Buffer]> = {
  '/logo.png': [200, 'image/png', PNG],
  '/logo.jpg': [200, 'image/jpeg', JPEG],
  '/octet.png': [200, 'application/octet-stream', PNG],
  '/gone.png': [404, 'text/plain', Buffer.from('gone')],
  '/big.png': [200, 'image/png', Buffer.concat([PNG, Buffer.alloc(1024 * 1024)])],
  '/logo.svg': [200, 'image/svg+xml', SVG],
  '/page.png': [200, 'image/png', Buffer.from('<!doctype html><title>not an image</title>')],
  '/html-png': [200, 'text/html', PNG],
  '/broken.png': [200, 'image/png', PNG.subarray(0, 40)],
};

let api: TestApi;
let client: Client;
let server: Server;
let origin: string;
let files: string;
let restoreEnv: () => void;
const hits: string[] = [];

beforeAll(async () => {
  const certificate = testCertificate();
  server = createServer(certificate, (req, res) => {
    hits.push(req.url!);
    if (req.url === '/moved.png') return void res.writeHead(302, { location: '/logo.png' }).end();
    const [status, type, body] = ROUTES[req.url!] ?? [404, 'text/plain', Buffer.from('none')];
    res.writeHead(status, { 'content-type': type }).end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  files = mkdtempSync(join(tmpdir(), 'logo-files-'));
  restoreEnv = withEnv({ LOGO_FETCH_ALLOW_LOOPBACK: 'true', LOGO_FETCH_TEST_CA: certificate.cert, FILES_DIR: files });
  api = await startTestApi();
  client = await api.client();
});
afterAll(async () => {
  restoreEnv();
  if (server.listening) await new Promise<void>((done) => server.close(() => done()));
  await api.close();
  rmSync(files, { recursive: true, force: true });
});

/** Every file stored so far. */
const storedFiles = (): string[] => readdirSync(files, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);

const download = async (path: string) => {
  const reply = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${client.token}` } });
  expect([path, reply.status, reply.headers.get('content-type')]).toEqual([path, 200, 'application/pdf']);
  return Buffer.from(await reply.arrayBuffer());
};

const imagesIn = (pdf: Buffer): number => pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length ?? 0;

describe('logo_url', () => {
  it('refuses what cannot be a logo with a 422 that says why, and changes nothing', async () => {
    const entity = await withEntity(client, { name: 'Refusals SAS' });
    const before = storedFiles().length;
    const cases: [string, string][] = [
      [`http://127.0.0.1:${new URL(origin).port}/logo.png`, 'logo_url_invalid'],
      [`${origin}/gone.png`, 'logo_unreachable'],
      [`${origin}/moved.png`, 'logo_unreachable'],
      [`${origin}/big.png`, 'logo_too_large'],
      [`${origin}/logo.svg`, 'logo_svg_unsupported'],
      [`${origin}/page.png`, 'logo_wrong_type'],
      [`${origin}/html-png`, 'logo_wrong_type'],
      [`${origin}/broken.png`, 'logo_invalid'],
    ];
    for (const [url, code] of cases) {
      const reply = await client.put(`/v1/invoicing-entities/${entity.id}`, { logo_url: url, brand_color: '#000000' });
      expect([url, reply.status, reply.body.code]).toEqual([url, 422, code]);
      expect(reply.body.message).toContain(url);
    }
    const created = await client.post('/v1/invoicing-entities', { name: 'Never made', country: 'FR', currency: 'EUR', logo_url: `${origin}/logo.svg` });
    expect([created.status, created.body.code]).toEqual([422, 'logo_svg_unsupported']);
    const after = (await client.get(`/v1/invoicing-entities/${entity.id}`)).body;
    expect([after.logo_url, after.brand_color]).toEqual([null, entity.brand_color]);
    expect(storedFiles().length).toBe(before);
    expect((await client.get('/v1/invoicing-entities?take=100')).body.data.map((e: { name: string }) => e.name)).not.toContain('Never made');
  });

  it('answers 404 for a receipt of a transaction the invoice does not have', async () => {
    const buyer = (await client.post('/v1/customers', { name: 'Receipts', currency: 'EUR', billing_address: { country: 'FR' } })).body;
    const invoice = (await client.post('/v1/invoices', { customer_id: buyer.id, status: 'to_pay', line_items: [{ name: 'Setup', unit_amount: 1_000 }] })).body;
    const missing = await client.get(`/v1/invoices/${invoice.id}/transactions/tra_unknown/receipt`);
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
  });

  it('refuses a loopback address outside the tests\' exception, as every destination of shared/net', async () => {
    const entity = await withEntity(client, { name: 'Loopback SAS' });
    const restore = withEnv({ LOGO_FETCH_ALLOW_LOOPBACK: undefined });
    try {
      const reply = await client.put(`/v1/invoicing-entities/${entity.id}`, { logo_url: `${origin}/logo.png` });
      expect([reply.status, reply.body.code]).toEqual([422, 'logo_unreachable']);
      expect(reply.body.message).toContain('non-public address (127.0.0.1 is loopback)');
    } finally {
      restore();
    }
  });

  it('takes a PNG or a JPEG, fetches it once, draws the stored copy on invoices, receipts and quotes, even once its source is gone', async () => {
    const jpeg = await client.post('/v1/invoicing-entities', { name: 'Jpeg SAS', country: 'FR', currency: 'EUR', logo_url: `${origin}/logo.jpg` });
    expect([jpeg.status, jpeg.body.logo_url]).toEqual([201, `${origin}/logo.jpg`]);
    const octet = await client.post('/v1/invoicing-entities', { name: 'Octet SAS', country: 'FR', currency: 'EUR', logo_url: `${origin}/octet.png` });
    expect(octet.status).toBe(201);

    const entity = await withEntity(client, { name: 'Logo SAS', is_default: true });
    const url = `${origin}/logo.png`;
    expect((await client.put(`/v1/invoicing-entities/${entity.id}`, { logo_url: url })).body.logo_url).toBe(url);
    expect((await client.put(`/v1/invoicing-entities/${entity.id}`, { logo_url: url, brand_color: '#336699' })).status).toBe(200);
    expect(hits.filter((path) => path === '/logo.png')).toHaveLength(1); // the same URL again is not fetched again

    const buyer = (await client.post('/v1/customers', { name: 'Globex Corp', currency: 'EUR', invoicing_entity_id: entity.id, billing_address: { country: 'FR' } })).body;
    const invoice = (await client.post('/v1/invoices', { customer_id: buyer.id, invoicing_entity_id: entity.id, status: 'to_pay', line_items: [{ name: 'Consulting day', unit_amount: 80_000 }] })).body;
    const paid = (await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: 50_000, payment_method_type: 'transfer' }));
    expect(paid.status).toBe(201);
    const payment = paid.body.transactions.find((tx: { type: string }) => tx.type === 'payment');

    await new Promise<void>((done) => server.close(() => done())); // the source goes away
    expect(imagesIn(await download(`/v1/invoices/${invoice.id}/download?format=pdf`))).toBe(1);
    const receipt = await download(`/v1/invoices/${invoice.id}/transactions/${payment.id}/receipt`);
    expect(imagesIn(receipt)).toBe(1);
    const text = readPdf(receipt).text.replace(/\s+/g, ' ');
    for (const expected of ['Receipt', `${invoice.number}-R1`, `Payment of invoice ${invoice.number}`, '€500.00', '€960.00', 'Globex Corp', 'Logo SAS']) {
      expect([expected, text.includes(expected)]).toEqual([expected, true]);
    }
    const quote = await quoteOf(client);
    expect(imagesIn(await download(`/v1/quotes/${quote.id}/download`))).toBe(1);

    // The invoice page: the logo heads it (a data URL, the seller's name as its alt text), a receipt per payment.
    const page = await fetch(invoice.public_url);
    const markup = await page.text();
    expect(markup).toMatch(/<header class="brand"><img src="data:image\/png;base64,[A-Za-z0-9+/=]+" alt="Logo SAS"><\/header>/);
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self' data:");
    const href = /<a href="([^"]+\/receipts\/[^"]+)" download>Receipt for the payment of [^<]+ \(€500\.00\)<\/a>/.exec(markup)?.[1];
    const fromPage = await fetch(new URL(href!, api.url));
    expect([fromPage.status, fromPage.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    expect(readPdf(Buffer.from(await fromPage.arrayBuffer())).text).toContain(`${invoice.number}-R1`);

    // Clearing the logo: documents print without.
    expect((await client.put(`/v1/invoicing-entities/${entity.id}`, { logo_url: null })).body.logo_url).toBeNull();
    expect(imagesIn(await download(`/v1/invoices/${invoice.id}/download?format=pdf`))).toBe(0);
  });
});
