/**
 * A payment's receipt (what Stripe calls one): its number, the day it was paid, how, the amount, the invoice it pays,
 * seller and customer, in the layout of every document (sheet.ts).
 */
import { Conflict, NotFound } from '../../../errors';
import type { Invoice, PaymentTransaction } from '../invoice';
import type { Parties } from './header';
import { paymentWay, type Words } from './labels';
import type { Sheet } from './sheet';

const succeededPayments = (invoice: Invoice): PaymentTransaction[] =>
  invoice.transactions.filter((tx) => tx.type === 'payment' && tx.status === 'succeeded');

/** The payment `transactionId` of the invoice; 404 when the invoice has none such, 409 when it is no successful payment. */
export function receiptPayment(invoice: Invoice, transactionId: string): PaymentTransaction {
  const transaction = invoice.transactions.find((tx) => tx.id === transactionId);
  if (!transaction) throw new NotFound('transaction of this invoice', transactionId);
  if (transaction.type !== 'payment' || transaction.status !== 'succeeded') {
    throw new Conflict(`Transaction '${transactionId}' is a ${transaction.status} ${transaction.type}: only a successful payment has a receipt.`, 'receipt_unavailable');
  }
  return transaction;
}

/** `<invoice number>-R<n>`: the invoice's number and the payment's rank among its successful payments (they are only appended). */
export const receiptNumber = (invoice: Invoice, payment: PaymentTransaction): string =>
  `${invoice.number ?? invoice.id}-R${succeededPayments(invoice).findIndex((tx) => tx.id === payment.id) + 1}`;

export function receiptSheet(invoice: Invoice, payment: PaymentTransaction, words: Words, parties: Parties): Sheet {
  const { t, f } = words;
  const number = receiptNumber(invoice, payment);
  const invoiceNumber = invoice.number ?? invoice.id;
  const paidOn = f.date(payment.process_at);
  const way = paymentWay(payment.payment_method, words);
  const money = (amount: number) => f.money(amount, payment.currency);
  return {
    heading: { title: t('pdf.receipt'), number, sellerName: invoice.seller.name, mark: { stamp: t('pdf.paid_stamp'), detail: `${t('pdf.paid_on', { date: paidOn })}, ${way}` } },
    parties: {
      ...parties,
      facts: [[t('pdf.date_paid'), paidOn], [t('pdf.payment_method'), way], [t('pdf.invoice_number'), invoiceNumber]],
    },
    table: {
      columns: [{ title: t('doc.description'), share: 0.7 }, { title: t('doc.amount'), share: 0.3 }],
      rows: [{ name: t('pdf.receipt_for', { number: invoiceNumber }), details: invoice.emitted_at ? [`${t('doc.issued_at')}: ${f.date(invoice.emitted_at)}`] : [], figures: [money(payment.amount)] }],
    },
    totals: [
      { label: t('pdf.invoice_total'), printed: f.money(invoice.total_amount, invoice.currency) },
      { label: t('pdf.amount_paid'), printed: money(payment.amount), strong: 'due' },
    ],
    notes: [],
    footer: invoice.footer,
    info: { title: `${t('pdf.receipt')} ${number}`, author: invoice.seller.name, created: new Date(payment.process_at) },
  };
}
