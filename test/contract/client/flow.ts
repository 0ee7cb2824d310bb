/**
 * A client of the API generated from its OpenAPI document (openapi-typescript → generated/api.d.ts, openapi-fetch):
 * test/contract/openapi-tools.test.ts type-checks this flow, so a document that cannot describe it fails the suite.
 * Entity → customer → product with inline prices → invoice with units_count → validate → card → charge.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/api';

type Invoice = components['schemas']['Invoice'];

export async function billOneCustomer(baseUrl: string, token: string): Promise<Invoice> {
  const api = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
  const must = <T>(reply: { data?: T; error?: components['schemas']['Error'] }): T => {
    if (reply.error || reply.data === undefined) throw new Error(`${reply.error?.code}: ${reply.error?.message}`);
    return reply.data;
  };

  const entity = must(await api.POST('/v1/invoicing-entities', { body: { name: 'Acme SAS', country: 'FR', currency: 'EUR' } }));
  const customer = must(
    await api.POST('/v1/customers', {
      body: { name: 'Globex', currency: 'EUR', invoicing_entity_id: entity.id, billing_address: { line1: '1 rue de la Paix', city: 'Paris', country: 'FR' } },
    }),
  );
  const product = must(
    await api.POST('/v1/products', {
      body: {
        name: 'Platform',
        type: 'flat_fee',
        price_configurations: [{ currency: 'EUR', type: 'fee', billing_interval: { period: 'months', count: 1 }, prices: [{ amount: 1500 }] }],
      },
    }),
  );
  const price = product.price_configurations[0];
  if (!price) throw new Error('the product has no price configuration');

  const draft = must(
    await api.POST('/v1/invoices', {
      params: { header: { 'Idempotency-Key': `invoice-${customer.id}` } },
      body: {
        customer_id: customer.id,
        line_items: [
          { product_id: product.id, price_configuration_id: price.id, units_count: 3 },
          { name: 'Onboarding', unit_amount: 50_000, units_count: 1 },
        ],
      },
    }),
  );
  const validated = must(await api.POST('/v1/invoices/{id}/validate', { params: { path: { id: draft.id } } }));
  const card = must(await api.POST('/v1/customers/{id}/payment-methods', { params: { path: { id: customer.id } }, body: { token: 'tok_visa' } }));
  const charged = must(await api.POST('/v1/invoices/{id}/charge', { params: { path: { id: validated.id } }, body: { payment_method_id: card.id } }));

  const due: number = charged.amount_due;
  const lines: Array<{ units_count: number; amount: number }> = charged.line_items;
  if (due < 0 || lines.length !== 2) throw new Error('unexpected invoice');
  return charged;
}
