import { readPdf } from '../support/pdf-text';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;
beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client, { name: 'Acme SAS', brand_color: '#336699', invoice_footer: 'Acme SAS — RCS Paris 123' });
});
afterAll(() => api.close());

describe('GET /v1/invoices/{id}/download', () => {
  it('answers the PDF of the invoice: seller, customer, lines, taxes, totals and footer', async () => {
    const buyer = (await client.post('/v1/customers', { name: 'Globex Corp', currency: 'EUR', billing_address: { country: 'FR' } })).body;
    const invoice = (await client.post('/v1/invoices', { customer_id: buyer.id, status: 'to_pay', line_items: [{ name: 'Consulting day', unit_amount: 80_000, quantity: 2 }] })).body;
    const response = await fetch(`${api.url}/v1/invoices/${invoice.id}/download`, { headers: { authorization: `Bearer ${client.token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${invoice.number}.pdf"`);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { text } = readPdf(bytes);
    for (const expected of ['Acme SAS', 'Globex Corp', 'Consulting day', invoice.number, '€1,600.00', '€320.00', '€1,920.00', 'RCS Paris 123', 'Amount due']) {
      expect([expected, text.includes(expected)]).toEqual([expected, true]);
    }
  });

  it("speaks the customer's language, else the entity's", async () => {
    const pdfText = async (customer: Record<string, unknown>) => {
      const buyer = (await client.post('/v1/customers', { name: 'Globex Corp', currency: 'EUR', billing_address: { country: 'FR' }, ...customer })).body;
      const invoice = (await client.post('/v1/invoices', { customer_id: buyer.id, status: 'to_pay', line_items: [{ name: 'Consulting day', unit_amount: 80_000, quantity: 2 }] })).body;
      const reply = await fetch(`${api.url}/v1/invoices/${invoice.id}/download`, { headers: { authorization: `Bearer ${client.token}` } });
      return readPdf(Buffer.from(await reply.arrayBuffer())).text.replace(/\s/g, ' ');
    };
    const german = await pdfText({ language: 'de' });
    for (const expected of ['Rechnung', 'Offener Betrag', '1.920,00 €']) expect([expected, german.includes(expected)]).toEqual([expected, true]);
    const entity = (await client.get('/v1/invoicing-entities')).body.data[0];
    await client.put(`/v1/invoicing-entities/${entity.id}`, { language: 'it' });
    const italian = await pdfText({}); // Italian groups thousands from 5 digits on
    for (const expected of ['Fattura', '1920,00 €']) expect([expected, italian.includes(expected)]).toEqual([expected, true]);
    await client.put(`/v1/invoicing-entities/${entity.id}`, { language: 'en' });
  });

  it('answers a JSON 404 for an unknown invoice', async () => {
    const reply = await client.get('/v1/invoices/inv_nope/download');
    expect([reply.status, reply.body.code]).toEqual([404, 'not_found']);
  });
});
