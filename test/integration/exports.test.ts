/**
 * Accounting exports through the API (docs/accounting.md): a month of invoices, payments, credit notes and a
 * write-off, exported as a FEC that the checker of the format's rules accepts, as DATEV bookings and as CSV; the work
 * done once however often it runs, even after a crash; and the refusals.
 */
import iconv from 'iconv-lite';
import { makeCtx } from '../../shared/context';
import { runExport } from '../../shared/domain/exports/run';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { fileStore, useFileStore } from '../../shared/storage/file-store';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { checkFec } from '../support/fec-checker';
import { assertResponseContract } from '../support/response-contract';

let api: TestApi;
let client: Client;
const clock = movableClock();
const DAY = 86_400_000;
const MARCH = { from: '2027-03-01', to: '2027-03-31' };

beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
  clock.setOffset(Date.parse('2027-03-02T09:00:00.000Z') - Date.now());
});
afterAll(async () => {
  await api.close();
  clock.restore();
});

const mine = (c: Client = client) => ({ workspaces: new Set([c.workspace]) });

/** Runs the due work until the export has left `pending`. */
async function finished(id: string, c: Client = client) {
  await runDueWork(clock.now(), mine(c));
  const reply = await c.get(`/v1/exports/${id}`);
  expect(reply.status).toBe(200);
  return reply.body;
}

async function download(url: string, c: Client = client): Promise<{ bytes: Buffer; type: string | null }> {
  const response = await fetch(`${api.url}${url}`, { headers: { authorization: `Bearer ${c.token}` } });
  const bytes = Buffer.from(await response.arrayBuffer());
  assertResponseContract('GET', url, response.status, response.headers.get('content-type'), bytes.toString('latin1'));
  expect(response.status).toBe(200);
  return { bytes, type: response.headers.get('content-type') };
}

/** A month: three invoices, payments by hand and by card, a refunded credit note, a partial one, a write-off; one payment in April. */
async function bookMonth(c: Client) {
  await withEntity(c, { registration_number: '73282932000074', timezone: 'Europe/Paris' });
  const subscriptions = (await c.post('/v1/products', { name: 'Abonnement', type: 'flat_fee', account_code: '706100' })).body;
  const buyer = (await c.post('/v1/customers', { name: 'Société Générale d’Œuvres', currency: 'EUR', billing_address: { country: 'FR' } })).body;
  await c.post(`/v1/customers/${buyer.id}/payment-methods`, { token: 'tok_visa' });
  const issue = async (lines: unknown[]) => (await c.post('/v1/invoices', { customer_id: buyer.id, status: 'to_pay', line_items: lines })).body;
  const a = await issue([{ name: 'Plan', unit_amount: 10_000, product_id: subscriptions.id }, { name: 'Setup', unit_amount: 5_000 }]);
  const b = await issue([{ name: 'Conseil', unit_amount: 20_000, tax_rate: 5.5 }]);
  const d = await issue([{ name: 'Formation', unit_amount: 7_000 }]);
  clock.advance(3 * DAY);
  expect((await c.post(`/v1/invoices/${a.id}/transactions`, { amount: a.amount_due })).status).toBe(201);
  expect((await c.post(`/v1/invoices/${b.id}/charge`)).body.status).toBe('paid');
  clock.advance(5 * DAY);
  expect((await c.post(`/v1/invoices/${a.id}/credit-notes`, { amount: 6_000, refund_method: 'payment_method' })).status).toBe(201);
  expect((await c.post(`/v1/invoices/${d.id}/transactions`, { amount: 2_000 })).status).toBe(201);
  expect((await c.post(`/v1/invoices/${d.id}/credit-notes`, { amount: 1_000 })).status).toBe(201);
  clock.advance(10 * DAY);
  expect((await c.post(`/v1/invoices/${d.id}/uncollectible`)).body.status).toBe('uncollectible');
  const e = await issue([{ name: 'Maintenance', unit_amount: 3_000 }]);
  clock.setOffset(Date.parse('2027-04-02T08:00:00.000Z') - Date.now());
  expect((await c.post(`/v1/invoices/${e.id}/transactions`, { amount: 1_000 })).status).toBe(201);
  return { buyer, invoices: [a, b, d, e] };
}

describe('accounting exports', () => {
  let month: Awaited<ReturnType<typeof bookMonth>>;
  beforeAll(async () => {
    month = await bookMonth(client);
  });

  it('writes the month as a FEC that passes the format checker, in ISO 8859-15, with the receivable the API shows as owed', async () => {
    const asked = await client.post('/v1/exports', { kind: 'journal', format: 'fec', period: MARCH });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ kind: 'journal', format: 'fec', period: MARCH, status: 'pending', files: [], error: null, trigger: 'api' });
    const done = await finished(asked.body.id);
    expect(done).toMatchObject({ status: 'completed', error: null, completed_at: expect.any(String) });
    expect(done.files).toEqual([expect.objectContaining({ name: '732829320FEC20270331.txt', content_type: 'text/plain; charset=iso-8859-15', download_url: `/v1/exports/${done.id}/files/0` })]);

    const { bytes } = await download(done.files[0].download_url);
    const report = checkFec(done.files[0].name, bytes);
    expect(report.errors).toEqual([]);
    expect(report.separator).toBe('\t');
    expect(bytes.includes(Buffer.from([0xe9]))).toBe(true); // é, one byte in ISO 8859-15
    expect(bytes.includes(Buffer.from([0xbc]))).toBe(true); // Œ: ISO 8859-15 has it (Latin-1 has not)
    expect(iconv.decode(bytes, 'ISO-8859-15')).toContain("Société Générale d'Œuvres");
    expect(done.files[0].rows).toBe(report.records.length);

    const journals = (code: string) => new Set(report.records.filter((r) => r.JournalCode === code).map((r) => r.EcritureNum)).size;
    expect([journals('VE'), journals('BQ'), journals('OD')]).toEqual([6, 4, 1]); // 4 invoices + 2 credit notes; 3 payments + 1 refund; 1 write-off
    const receivable = report.records.filter((r) => r.CompteNum === '411000').reduce((s, r) => s + Number(r.Debit.replace(',', '.')) * 100 - Number(r.Credit.replace(',', '.')) * 100, 0);
    const open = (await client.get('/v1/invoices?status__in=to_pay,partially_paid&take=100')).body.data as { amount_due: number }[];
    // The April payment (1,000 of invoice e) is not in March: the receivable of March still holds it.
    expect(Math.round(receivable)).toBe(open.reduce((s, i) => s + i.amount_due, 0) + 1_000);
    // The product's account: its invoice line's revenue, and the part of it the credit note took back.
    const subscriptionLines = report.records.filter((r) => r.CompteNum === '706100');
    expect(subscriptionLines.map((r) => [r.JournalCode, r.Debit === '0,00' ? 'credit' : 'debit'])).toEqual([['VE', 'credit'], ['VE', 'debit']]);
    expect(subscriptionLines[0]!.Credit).toBe('100,00');
    const pieces = new Set(report.records.filter((r) => r.JournalCode === 'VE').map((r) => r.PieceRef));
    for (const invoice of month.invoices) expect(pieces.has(invoice.number)).toBe(true);
    expect(report.records.filter((r) => r.CompteNum === '411000').every((r) => r.CompAuxNum === month.buyer.id)).toBe(true);
    expect(report.records.some((r) => r.CompteNum === '44570550' && r.Credit === '11,00')).toBe(true);
  });

  it('writes DATEV bookings (EXTF Buchungsstapel, Windows-1252) and a CSV of the same lines', async () => {
    const datev = await finished((await client.post('/v1/exports', { kind: 'journal', format: 'datev', from: MARCH.from, to: MARCH.to })).body.id);
    expect(datev.status).toBe('completed');
    const text = iconv.decode((await download(datev.files[0].download_url)).bytes, 'win1252');
    const [header, columns, ...bookings] = text.trimEnd().split('\r\n');
    expect(header).toMatch(/^"EXTF";700;21;"Buchungsstapel";13;\d{17};;"RE";"";"";1001;1;20270101;\d+;20270301;20270331;/);
    expect(columns!.split(';').slice(0, 14)).toEqual(['Umsatz (ohne Soll/Haben-Kz)', 'Soll/Haben-Kennzeichen', 'WKZ Umsatz', 'Kurs', 'Basis-Umsatz', 'WKZ Basis-Umsatz', 'Konto', 'Gegenkonto (ohne BU-Schlüssel)', 'BU-Schlüssel', 'Belegdatum', 'Belegfeld 1', 'Belegfeld 2', 'Skonto', 'Buchungstext']);
    for (const b of bookings) expect(b).toMatch(/^\d+,\d{2};"[SH]";"EUR";;;;\d+;\d+;"";(0[1-9]|[12]\d|3[01])03;"[^"]*";"";;".*"$/);

    const csv = await finished((await client.post('/v1/exports', { kind: 'journal', format: 'csv', period: MARCH })).body.id);
    const rows = (await download(csv.files[0].download_url)).bytes.toString('utf8').trimEnd().split('\r\n');
    expect(rows[0]).toBe('journal,entry_number,date,account,account_label,auxiliary,auxiliary_label,piece_ref,piece_date,label,debit,credit,currency,amount_in_document_currency,document_currency,source,source_id,invoicing_entity_id');
    expect(rows.length - 1).toBe(csv.files[0].rows);
  });

  it('makes the files once, even when a worker crashed after writing them and the work runs again, twice at once: one export.completed', async () => {
    const id = (await client.post('/v1/exports', { kind: 'journal', format: 'csv', period: MARCH })).body.id;
    const store = await fileStore();
    const crashing = { get: store.get, put: async (key: string, body: Uint8Array, type: string) => { await store.put(key, body, type); throw new Error('worker crashed'); } };
    useFileStore(crashing);
    await expect(runExport(makeCtx(client.workspace, 'test'), id)).rejects.toThrow('worker crashed');
    useFileStore(undefined);
    expect((await client.get(`/v1/exports/${id}`)).body.status).toBe('pending');
    await Promise.all([runDueWork(clock.now(), mine()), runDueWork(clock.now(), mine())]);
    await runExport(makeCtx(client.workspace, 'test'), id);
    expect((await client.get(`/v1/exports/${id}`)).body.status).toBe('completed');
    expect((await runDueWork(clock.now(), mine())).due).toBe(0);
    await api.events.settle();
    const messages = (await client.get('/v1/webhooks/messages?limit=250')).body.data as { payload: { event_type: string; data: { id: string; status: string } } }[];
    const told = messages.filter((m) => m.payload.event_type === 'export.completed' && m.payload.data.id === id);
    expect(told.map((m) => m.payload.data.status)).toEqual(['completed']);
  });

  it('exports the day before every night once daily is on, one export a day however often the night runs, until it is off', async () => {
    const daily = async () => ((await client.get('/v1/exports?take=100')).body.data as { trigger: string; period: { from: string }; status: string }[]).filter((e) => e.trigger === 'daily');
    expect((await client.post('/v1/exports', { kind: 'data', format: 'parquet', period: { from: '2027-04-01', to: '2027-04-01' }, daily: true })).status).toBe(202);
    clock.advance(DAY); // past 01:00 the next day
    await Promise.all([runDueWork(clock.now(), mine()), runDueWork(clock.now(), mine())]);
    await runDueWork(clock.now(), mine());
    expect(await daily()).toEqual([expect.objectContaining({ kind: 'data', format: 'parquet', period: { from: '2027-04-02', to: '2027-04-02' }, status: 'completed' })]);
    expect((await client.post('/v1/exports', { kind: 'data', format: 'parquet', period: { from: '2027-04-01', to: '2027-04-01' }, daily: false })).status).toBe(202);
    clock.advance(DAY);
    await runDueWork(clock.now(), mine());
    expect((await daily()).length).toBe(1);
  });

  it('lists exports and hides them from other workspaces', async () => {
    const list = await client.get('/v1/exports?take=100');
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(list.body.data.length);
    const other = await api.client();
    const id = list.body.data[0].id;
    expect((await other.get(`/v1/exports/${id}`)).status).toBe(404);
    expect((await other.get(`/v1/exports/${id}/files/0`)).status).toBe(404);
    expect((await client.get(`/v1/exports/${id}/files/9`)).status).toBe(404);
  });

  it('refuses what it cannot export, saying why, and writes nothing', async () => {
    const before = (await client.get('/v1/exports')).body.meta.total;
    const refusals = [
      [{ kind: 'data', format: 'fec', period: MARCH }, 422, 'format_not_supported'],
      [{ kind: 'journal', format: 'csv', period: { from: '2027-03-31', to: '2027-03-01' } }, 422, 'period_invalid'],
      [{ kind: 'journal', format: 'csv', period: { from: '2026-01-01', to: '2027-03-01' } }, 422, 'period_too_long'],
      [{ kind: 'journal', format: 'csv', period: { from: '2027-02-30', to: '2027-03-01' } }, 400, 'invalid_request'],
      [{ kind: 'journal', format: 'csv' }, 400, 'invalid_request'],
      [{ kind: 'journal', format: 'csv', period: MARCH, from: '2027-03-01' }, 400, 'invalid_request'],
      [{ kind: 'journal', format: 'csv', period: MARCH, invoicing_entity_id: 'ive_nope' }, 422, 'invoicing_entity_not_found'],
      [{ kind: 'journal', format: 'csv', period: MARCH, daily: true }, 422, 'daily_not_supported'],
    ] as const;
    for (const [body, status, code] of refusals) {
      const reply = await client.post('/v1/exports', body);
      expect([reply.status, reply.body.code]).toEqual([status, code]);
    }
    expect((await client.get('/v1/exports')).body.meta.total).toBe(before);
  });

  it('fails an export of documents in another currency than the entity books in, when no rate is stored', async () => {
    const other = await api.client();
    await withEntity(other, { registration_number: '73282932000074' });
    const buyer = (await other.post('/v1/customers', { name: 'US Buyer', currency: 'USD' })).body;
    const invoice = (await other.post('/v1/invoices', { customer_id: buyer.id, status: 'to_pay', line_items: [{ name: 'A', unit_amount: 1_000 }] })).body;
    const april = { from: '2027-04-01', to: '2027-04-30' };
    const done = await finished((await other.post('/v1/exports', { kind: 'journal', format: 'fec', period: april })).body.id, other);
    expect(done).toMatchObject({ status: 'failed', files: [], error: { code: 'exchange_rate_missing', message: expect.stringContaining(invoice.number) } });
  });
});
