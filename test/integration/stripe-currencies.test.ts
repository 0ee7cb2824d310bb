import { describeWithStripeFixtures } from '../support/stripe/fixtures';
import { stripeSuite } from '../support/stripe/suite';

describeWithStripeFixtures("Stripe's three-decimal currencies (KWD, BHD, JOD, OMR, TND: the last digit 0)", () => {
  const s = stripeSuite();
  const intentsOf = (invoiceId: string) => [...s.keys.account.paymentIntents.values()].filter((pi) => pi.metadata.invoice_id === invoiceId);

  /** A KWD customer with a saved card and a to_pay invoice of 10.000 KWD + 20 % VAT = 12.000 KWD. */
  async function kwdInvoice() {
    const customer = (await s.client.post('/v1/customers', { name: 'Kuwait payer', currency: 'KWD', billing_address: { country: 'FR' } })).body;
    expect((await s.client.post(`/v1/customers/${customer.id}/payment-methods`, { provider: 'stripe', token: 'pm_card_visa' })).status).toBe(201);
    const invoice = (await s.client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: 10_000 }] })).body;
    expect([invoice.currency, invoice.amount_due]).toEqual(['KWD', 12_000]);
    return invoice as { id: string };
  }

  it('an amount due in tens of fils is charged as it is', async () => {
    const invoice = await kwdInvoice();
    const charged = (await s.client.post(`/v1/invoices/${invoice.id}/charge`, {})).body;
    expect([charged.status, charged.amount_paid]).toEqual(['paid', 12_000]);
    expect(intentsOf(invoice.id)).toEqual([expect.objectContaining({ amount: 12_000, currency: 'kwd', status: 'succeeded' })]);
  });

  it('an amount due ending in 1–9 fils is refused before Stripe is asked, never rounded: a failed attempt saying why', async () => {
    const invoice = await kwdInvoice();
    // A manual payment of 0.005 KWD leaves 11.995 KWD due, which Stripe cannot take.
    expect((await s.client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: 5 })).status).toBe(201);
    const requestsBefore = s.env.standIn.requests.filter((r) => r.path === '/v1/payment_intents').length;
    const reply = await s.client.post(`/v1/invoices/${invoice.id}/charge`, {});
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: 'error', amount_due: 11_995, amount_paid: 5 });
    expect(reply.body.transactions.at(-1)).toMatchObject({
      type: 'payment', status: 'failed', amount: 11_995, error_type: 'amount_precision_unsupported', provider_id: null,
      comment: expect.stringContaining('multiples of 0.010 KWD'),
    });
    expect(s.env.standIn.requests.filter((r) => r.path === '/v1/payment_intents').length).toBe(requestsBefore);
    expect(intentsOf(invoice.id)).toEqual([]);
  });
});
