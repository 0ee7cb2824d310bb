import type { Client } from '../api';
import { draftInvoiceOf, paidInvoiceOf } from './invoices';
import type { AreaFixtures } from './types';

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

async function issuedInvoice(client: Client) {
  return (await draftInvoiceOf(client, { status: 'to_pay' })) as { id: string; customer_id: string; public_url?: string };
}

/** The hosted pages: their path names a capability link (the token), made from a document or a portal session. */
export const pageFixtures: AreaFixtures = {
  resources: {
    '/pages/invoices/{token}': async (client) => {
      const invoice = await issuedInvoice(client);
      return { params: { token: tokenOf(invoice.public_url!) }, read: `/v1/invoices/${invoice.id}` };
    },
    '/pages/invoices/{token}/receipts/{transactionId}': async (client) => {
      const invoice = await paidInvoiceOf(client);
      return { params: { token: tokenOf(invoice.public_url), transactionId: invoice.transactionId }, read: `/v1/invoices/${invoice.id}` };
    },
    '/pages/quotes/{token}': async (client) => {
      // A quote's page opens in pending_signature and signed only; any signed link of the right kind shows the route.
      const invoice = await issuedInvoice(client);
      return { params: { token: tokenOf(invoice.public_url!) }, read: `/v1/invoices/${invoice.id}` };
    },
    '/pages/portal/{token}': async (client) => {
      const invoice = await issuedInvoice(client);
      const session = (await client.post(`/v1/customers/${invoice.customer_id}/portal-sessions`)).body;
      return { params: { token: tokenOf(session.url) }, read: `/v1/customers/${invoice.customer_id}` };
    },
    '/v1/customers/{id}/portal-sessions/{sessionId}': async (client) => {
      const invoice = await issuedInvoice(client);
      const session = (await client.post(`/v1/customers/${invoice.customer_id}/portal-sessions`)).body;
      // Revoking needs the session's own workspace: another workspace's call must leave the link working.
      return { params: { id: invoice.customer_id, sessionId: session.id }, read: `/v1/customers/${invoice.customer_id}` };
    },
  },
  bodies: {
    createPortalSession: { send_email: false },
    invoicePagePay: { method: 'saved' },
    quotePageSign: {},
    portalAddCard: { token: 'tok_visa' },
    portalMakeDefault: { payment_method_id: 'pm_unknown' },
    portalRemoveCard: { payment_method_id: 'pm_unknown' },
    portalSubscription: { action: 'cancel', subscription_id: 'sub_unknown' },
    portalBillingDetails: { billing_email: 'billing@example.test' },
  },
};
