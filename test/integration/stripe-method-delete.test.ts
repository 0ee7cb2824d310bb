import { describeWithStripeFixtures } from '../support/stripe/fixtures';
import { stripeSuite } from '../support/stripe/suite';

describeWithStripeFixtures('deleting a saved Stripe method detaches it at Stripe (DELETE /v1/customers/{id}/payment-methods/{pmId})', () => {
  const s = stripeSuite();
  const detaches = () => s.env.standIn.requests.filter((r) => /^\/v1\/payment_methods\/[^/]+\/detach$/.test(r.path));

  /** A customer with pm_card_visa saved: our method and the PaymentMethod it is at Stripe. */
  async function savedCard() {
    const customer = (await s.client.post('/v1/customers', { name: 'Card holder', currency: 'EUR' })).body;
    const method = (await s.client.post(`/v1/customers/${customer.id}/payment-methods`, { provider: 'stripe', token: 'pm_card_visa' })).body;
    const atStripe = [...s.keys.account.paymentMethods.values()].find((pm) => pm.customer && s.keys.account.customers.get(pm.customer as string)?.metadata.customer_id === customer.id)!;
    return { customerId: customer.id as string, methodId: method.id as string, atStripe };
  }

  it('detached once, then deleted here; a second DELETE is a 404 that asks Stripe nothing', async () => {
    const { customerId, methodId, atStripe } = await savedCard();
    const before = detaches().length;
    const deleted = await s.client.delete(`/v1/customers/${customerId}/payment-methods/${methodId}`);
    expect([deleted.status, deleted.body.deleted_at]).toEqual([200, expect.any(String)]);
    expect(s.keys.account.paymentMethods.get(atStripe.id)!.customer).toBeNull();
    expect(detaches().slice(before)).toEqual([expect.objectContaining({ path: `/v1/payment_methods/${atStripe.id}/detach`, idempotencyKey: `detach:${atStripe.id}`, status: 200 })]);
    expect((await s.client.delete(`/v1/customers/${customerId}/payment-methods/${methodId}`)).status).toBe(404);
    expect(detaches().length).toBe(before + 1);
  });

  it('Stripe detached it but the answer was lost (both SDK tries): a 503 with nothing deleted; the retry is Stripe\'s first answer replayed, then the delete', async () => {
    const { customerId, methodId, atStripe } = await savedCard();
    s.env.standIn.cutAfterProcessing(/\/detach$/, 2);
    const failed = await s.client.delete(`/v1/customers/${customerId}/payment-methods/${methodId}`);
    expect([failed.status, failed.body.code]).toEqual([503, 'service_unavailable']);
    expect(s.keys.account.paymentMethods.get(atStripe.id)!.customer).toBeNull(); // Stripe did detach it
    expect((await s.client.get(`/v1/customers/${customerId}/payment-methods/${methodId}`)).status).toBe(200); // still ours
    const retried = await s.client.delete(`/v1/customers/${customerId}/payment-methods/${methodId}`);
    expect(retried.status).toBe(200);
    const tries = detaches().filter((r) => r.path.includes(atStripe.id));
    expect(tries.map((r) => r.replayed)).toEqual([false, true, true]); // one detach at Stripe, its answer replayed
  });

  it('a method Stripe no longer has attached (detached in its dashboard) is deleted here all the same', async () => {
    const { customerId, methodId, atStripe } = await savedCard();
    s.keys.account.detachPaymentMethod(atStripe.id);
    expect((await s.client.delete(`/v1/customers/${customerId}/payment-methods/${methodId}`)).status).toBe(200);
    expect((await s.client.get(`/v1/customers/${customerId}/payment-methods`)).body.data).toEqual([]);
  });
});
