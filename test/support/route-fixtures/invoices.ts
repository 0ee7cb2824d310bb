import type { Client } from '../api';
import type { AreaFixtures } from './types';

/** An EUR customer (an invoicing entity first, when the workspace has none) and a draft invoice of one custom line. */
export async function draftInvoiceOf(client: Client, body: Record<string, unknown> = {}): Promise<{ id: string; customer_id: string }> {
  if ((await client.get('/v1/invoicing-entities?take=0')).body.meta.total === 0) {
    await client.post('/v1/invoicing-entities', { name: 'Acme', country: 'FR', currency: 'EUR' });
  }
  const customer = (await client.post('/v1/customers', { name: 'Invoiced', currency: 'EUR', billing_address: { country: 'FR' } })).body;
  const reply = await client.post('/v1/invoices', { customer_id: customer.id, line_items: [{ name: 'Setup', unit_amount: 10_000 }], ...body });
  if (reply.status !== 201) throw new Error(`invoice creation failed: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** An issued invoice with one recorded payment (a bank transfer of part of it): what has a receipt. */
export async function paidInvoiceOf(client: Client): Promise<{ id: string; customer_id: string; public_url: string; transactionId: string }> {
  const invoice = (await draftInvoiceOf(client, { status: 'to_pay' })) as { id: string; customer_id: string; public_url: string };
  const reply = await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: 1_000, payment_method_type: 'transfer' });
  if (reply.status !== 201) throw new Error(`payment failed: ${JSON.stringify(reply.body)}`);
  return { ...invoice, transactionId: reply.body.transactions.find((tx: { type: string }) => tx.type === 'payment').id };
}

export const invoiceFixtures: AreaFixtures = {
  resources: {
    '/v1/invoices/{id}': async (client) => (await draftInvoiceOf(client)).id,
    '/v1/invoices/{id}/transactions/{transactionId}': async (client) => {
      const invoice = await paidInvoiceOf(client);
      return { params: { id: invoice.id, transactionId: invoice.transactionId }, read: `/v1/invoices/${invoice.id}` };
    },
  },
  bodies: {
    createInvoice: { customer_id: 'cus_unknown', line_items: [{ name: 'Setup', unit_amount: 100 }] },
    createInvoiceBatch: [{ customer_id: 'cus_unknown', line_items: [{ name: 'Setup', unit_amount: 100 }] }],
    updateInvoice: { custom_note: 'Thanks' },
    chargeInvoice: {},
    createInvoiceTransaction: { amount: 100 },
    createCreditNote: { refund_method: 'none' },
  },
  // The fixture invoice is a draft: its PDF downloads, its e-invoices are refused (422, tested in einvoicing.test.ts).
  queries: { downloadInvoice: '?format=pdf' },
};
