import type { RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { invoiceResource } from '../../shared/schemas/invoices';
import {
  addCardForm, billingDetailsForm, pageDownloadQuery, pageQuery, pageResource, pageReturnQuery, pageScriptResource, pageTokenPath, payForm, paymentMethodForm, portalPageQuery, portalSessionCreateBody, portalSessionPath,
  portalSessionResource, portalSubscriptionForm, receiptPagePath, signForm,
} from '../../shared/schemas/pages';
import { quoteResource } from '../../shared/schemas/quotes';

const TAG = 'Hosted pages';

/** A page of a capability link (docs/hosted-pages.md): public, the link's signature is the credential. */
const pageRoute = (id: string, method: 'GET' | 'POST', path: string, handler: string, summary: string, body?: RouteDefinition['request']['body']): RouteDefinition => ({
  id, method, path, handler: `functions/pages/${handler}.ts`, scope: 'public', tag: TAG, summary,
  request: { path: pageTokenPath, ...(method === 'GET' ? { query: pageQuery } : { body }) },
  // A form answers with a redirect back to its page (303) or, when refused, the page again.
  response: { status: method === 'GET' ? 200 : 303, schema: pageResource },
});

/**
 * The hosted pages: an invoice (pay it), a quote (sign it) and the customer portal, served as HTML by the API itself,
 * and the API routes that hand out and revoke their links.
 */
export const pageRoutes: RouteDefinition[] = [
  pageRoute('invoicePage', 'GET', '/pages/invoices/{token}', 'invoice', 'The invoice page (HTML): the invoice, its PDF and its payment'),
  pageRoute('invoicePagePay', 'POST', '/pages/invoices/{token}/pay', 'invoice-pay', 'Pay the invoice from its page (form)', payForm),
  // Where Stripe.js (or Stripe's redirect) returns after 3-D Secure: the charge is settled from Stripe's PaymentIntent.
  {
    ...pageRoute('invoicePageReturn', 'GET', '/pages/invoices/{token}/return', 'invoice-return', 'Back from Stripe on the invoice page: the pending charge settled as Stripe says, then the page'),
    request: { path: pageTokenPath, query: pageReturnQuery }, response: { status: 303, schema: pageResource }, writes: true,
  },
  {
    ...pageRoute('invoicePagePdf', 'GET', '/pages/invoices/{token}/pdf', 'invoice-pdf', 'The invoice page\'s PDF, or with `format` its e-invoice'),
    request: { path: pageTokenPath, query: pageDownloadQuery }, response: { status: 200, schema: { type: 'string', format: 'binary' } },
  },
  {
    ...pageRoute('invoicePageReceipt', 'GET', '/pages/invoices/{token}/receipts/{transactionId}', 'invoice-receipt', 'The receipt (PDF) of a payment of the invoice on the page'),
    request: { path: receiptPagePath }, response: { status: 200, schema: { type: 'string', format: 'binary' } },
  },
  // The subscription a quote changes (gsi2); a signature prices the lines and writes what signQuote writes (gsi3).
  { ...pageRoute('quotePage', 'GET', '/pages/quotes/{token}', 'quote', 'The quote page (HTML): the quote as its display flags say, and its signature'), indexes: ['gsi2', 'gsi3'] },
  {
    ...pageRoute('quotePagePdf', 'GET', '/pages/quotes/{token}/pdf', 'quote-pdf', 'The quote page\'s PDF'),
    request: { path: pageTokenPath }, response: { status: 200, schema: { type: 'string', format: 'binary' } },
  },
  { ...pageRoute('quotePageSign', 'POST', '/pages/quotes/{token}/sign', 'quote-sign', 'Sign the quote from its page (form)', signForm), indexes: ['gsi2', 'gsi3'] },
  // The customer's documents and subscriptions (list index), payment methods and credit balances (parent index), usage.
  // With Stripe connected, it makes the SetupIntent of its "add a card" (and the customer's Stripe customer, once: a write).
  {
    ...pageRoute('portalPage', 'GET', '/pages/portal/{token}', 'portal', 'The customer portal (HTML)'),
    request: { path: pageTokenPath, query: portalPageQuery }, indexes: ['gsi1', 'gsi2', 'gsi3'], writes: true,
  },
  pageRoute('portalAddCard', 'POST', '/pages/portal/{token}/payment-methods', 'portal-add-card', 'Save a card from the portal (form)', addCardForm),
  pageRoute('portalMakeDefault', 'POST', '/pages/portal/{token}/payment-methods/default', 'portal-make-default', 'Choose the default payment method from the portal (form)', paymentMethodForm),
  // Each through the API's own function: a cancellation's final invoice or a change's proration invoice is created as
  // every invoice is (gsi3); the subscription answers with its metered usage (gsi2).
  {
    ...pageRoute('portalSubscription', 'POST', '/pages/portal/{token}/subscriptions', 'portal-subscription', 'Cancel a subscription, undo it, or change its plan or quantity from the portal (form)', portalSubscriptionForm),
    indexes: ['gsi2', 'gsi3'],
  },
  pageRoute('portalBillingDetails', 'POST', '/pages/portal/{token}/billing-details', 'portal-billing-details', 'Update the billing address, tax id and billing email from the portal (form)', billingDetailsForm),
  pageRoute('portalRemoveCard', 'POST', '/pages/portal/{token}/payment-methods/remove', 'portal-remove-card', 'Remove a payment method from the portal (form)', paymentMethodForm),
  {
    id: 'pagesStripeScript', method: 'GET', path: '/pages/assets/stripe-payment.js', handler: 'functions/pages/stripe-script.ts', scope: 'public', tag: TAG,
    summary: 'The hosted pages\' script for Stripe\'s Payment Element (JavaScript)', request: {}, response: { status: 200, schema: pageScriptResource },
  },
  {
    id: 'createPortalSession', method: 'POST', path: '/v1/customers/{id}/portal-sessions', handler: 'functions/pages/create-portal-session.ts',
    scope: 'write', tag: TAG, summary: 'Open a customer portal session: a link to the customer\'s portal, valid one hour; with `send_email`, emailed to the customer',
    request: { path: idPath, body: portalSessionCreateBody }, response: { status: 201, schema: portalSessionResource },
  },
  {
    id: 'revokePortalSession', method: 'DELETE', path: '/v1/customers/{id}/portal-sessions/{sessionId}', handler: 'functions/pages/revoke-portal-session.ts',
    scope: 'write', tag: TAG, summary: 'Revoke a portal session: its link stops working at once',
    request: { path: portalSessionPath }, response: { status: 200, schema: portalSessionResource },
  },
  {
    id: 'revokeInvoiceLinks', method: 'POST', path: '/v1/invoices/{id}/revoke-links', handler: 'functions/pages/revoke-invoice-links.ts',
    scope: 'write', tag: TAG, summary: 'Revoke the links given so far to the invoice\'s page; answers the invoice with its new `public_url`',
    request: { path: idPath }, response: { status: 200, schema: invoiceResource },
  },
  {
    id: 'revokeQuoteLinks', method: 'POST', path: '/v1/quotes/{id}/revoke-links', handler: 'functions/pages/revoke-quote-links.ts',
    scope: 'write', tag: TAG, summary: 'Revoke the links given so far to the quote\'s page; answers the quote with its new `url`',
    request: { path: idPath }, response: { status: 200, schema: quoteResource },
  },
];
