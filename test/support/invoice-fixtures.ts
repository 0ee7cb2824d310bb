/** Invoice fixtures for the PDF tests: amounts as the domain computes them, so each document adds up. */
import { crc32, deflateSync } from 'node:zlib';
import type { AppliedCoupon, Invoice, InvoiceLineItem, PaymentTransaction } from '../../shared/domain/invoices/invoice';
import type { Quote, QuoteLineItem } from '../../shared/domain/quotes/quote';

export const line = (id: string, over: Partial<InvoiceLineItem>): InvoiceLineItem => ({
  id, name: id, description: null, entry_type: 'custom', product_id: null, product_type: null, price_id: null,
  units_count: 1, unit_amount: 0, amount: 0, amount_excluding_tax: 0, tax_rate: 20, tax_rate_id: null, tax_amount: 0,
  discount_amount: 0, discount_percent: null, period_starts_at: null, period_ends_at: null, revenue_type: 'one_off',
  revenue_interval_count: null, revenue_interval_period: null, display_unit_amount: true, display_service_period: false,
  original_line_item_id: null, ...over,
});

/** 3 lines at 20 % VAT in EUR with a 10 % coupon; amounts as the domain computes them (half-up per line). */
export const eurLines: InvoiceLineItem[] = [
  line('lin_pro', {
    name: 'Pro plan', description: 'Monthly subscription, 2 seats', entry_type: 'product', revenue_type: 'recurring', units_count: 2,
    unit_amount: 4900, discount_amount: 980, discount_percent: 10, amount_excluding_tax: 8820, tax_amount: 1764, amount: 10584,
    period_starts_at: '2025-03-01T00:00:00.000Z', period_ends_at: '2025-03-31T23:59:59.999Z', display_service_period: true,
  }),
  line('lin_onboarding', {
    name: 'Onboarding workshop', unit_amount: 25000, display_unit_amount: false, discount_amount: 2500, discount_percent: 10, amount_excluding_tax: 22500,
    tax_amount: 4500, amount: 27000,
  }),
  line('lin_api', {
    name: 'API calls', description: 'Usage above the included quota', revenue_type: 'usage', units_count: 12345, unit_amount: 2,
    discount_amount: 2469, discount_percent: 10, amount_excluding_tax: 22221, tax_amount: 4444, amount: 26665,
  }),
];

export const coupon: AppliedCoupon = { id: 'cpn_welcome', name: 'WELCOME10', discount_amount: 5949, discount_percent: 10, line_item_ids: eurLines.map((l) => l.id) };

export function invoiceFixture(over: Partial<Invoice> = {}): Invoice {
  return {
    id: 'inv_01JQ3M8Z5V4X2Y7T9R6P1N0K3B', number: 'INV-2025-0042', type: 'invoice', document_name: null, status: 'to_pay',
    reference: 'REF-778', customer_id: 'cus_1', purchase_order: 'PO-5521', currency: 'EUR', source: 'api', collection_method: null, dunning: null, email_status: null, attempt_count: 0,
    total_amount: 64249, amount_due: 44249, amount_paid: 20000, amount_credited: 0, amount_fixed: 10584, amount_excluding_tax: 53541, tax_rate: 20,
    tax_amount: 10708, tax_scheme: 'standard', discount_amount: 5949, conversion_rate: null, converted_amount: null, converted_at: null,
    payment_method_id: null, bank_account_id: null, custom_note: 'Thank you for your business.', additional_info: 'Bank: IBAN FR76 3000 6000 0112 3456 7890 189',
    footer: 'Acme SAS, share capital 10,000 EUR, RCS Paris 123 456 789',
    customer: {
      id: 'cus_1', name: 'Globex GmbH', email: 'billing@globex.example', external_id: null, vat_number: 'DE123456789', tax_id: 'DE123456789',
      address: { name: null, line1: 'Hauptstrasse 5', line2: null, city: 'Berlin', zip: '10115', state: null, country: 'DE' },
    },
    seller: {
      id: 'ive_1', name: 'Acme', trade_name: null, tax_id: 'FR40303265045',
      address: { name: 'Acme SAS', line1: '12 rue de la Paix', line2: 'Building B', city: 'Paris', zip: '75002', state: null, country: 'FR' },
    },
    subscription_id: null, period_starts_at: null, period_ends_at: null,
    emitted_at: '2025-03-14T23:30:00.000Z', due_at: '2025-04-13T23:30:00.000Z', refunded_at: null, grace_period_ended_at: null,
    settled_at: null, created_at: '2025-03-14T23:30:00.000Z', updated_at: '2025-03-14T23:31:00.000Z', properties: null, custom_properties: null,
    original_invoice_id: null, original_invoice_number: null, line_items: eurLines, coupons: [coupon], transactions: [],
    public_url: 'https://pay.billing.invalid/invoices/inv_01JQ3M8Z5V4X2Y7T9R6P1N0K3B', integrations: [], ...over,
  };
}

export const jpyInvoice = (): Invoice => {
  const consulting = line('lin_consulting', { name: 'Consulting days', units_count: 3, unit_amount: 15000, amount_excluding_tax: 45000, tax_rate: 10, tax_amount: 4500, amount: 49500 });
  return invoiceFixture({
    number: 'INV-JP-7', currency: 'JPY', tax_scheme: 'manual', tax_rate: 10, line_items: [consulting], coupons: [], discount_amount: 0,
    amount_excluding_tax: 45000, tax_amount: 4500, total_amount: 49500, amount_paid: 0, amount_due: 49500, amount_fixed: 0,
    custom_note: null, additional_info: null, footer: 'Acme KK, Tokyo',
  });
};

export const creditNote = (): Invoice => {
  const refund = line('lin_refund', { name: 'Pro plan (refund)', unit_amount: 10000, amount_excluding_tax: 10000, tax_rate: 0, amount: 10000, original_line_item_id: 'lin_pro' });
  return invoiceFixture({
    id: 'inv_cn', number: 'CN-0003', type: 'credit_note', tax_scheme: 'reverse_charge', tax_rate: 0, line_items: [refund], coupons: [],
    discount_amount: 0, amount_excluding_tax: 10000, tax_amount: 0, total_amount: 10000, amount_paid: 0, amount_due: 10000, amount_fixed: 0,
    original_invoice_id: 'inv_01JQ3M8Z5V4X2Y7T9R6P1N0K3B', original_invoice_number: 'INV-2025-0042', custom_note: null, additional_info: null,
  });
};


/** A successful payment of `amount` on `at`, by a saved Visa card or as given. */
export const payment = (id: string, amount: number, at: string, method: Partial<PaymentTransaction['payment_method']> = {}): PaymentTransaction => ({
  id, type: 'payment', amount, currency: 'EUR', customer_id: 'cus_1', provider_id: null, process_at: at, refunded_at: null, last_refreshed_at: at,
  provider_fee: null, chargeback: null, integrations: [], status: 'succeeded', error_type: null, comment: null,
  payment_method: { id: 'pym_1', status: 'active', type: 'card', last_4_digits: 4242, expiration_date: '2030-12', brand: 'visa', ...method },
});

/** Paid in two payments (a card, then a bank transfer) after a credit note settled part of it. */
export const paidInvoice = (): Invoice => invoiceFixture({
  status: 'paid', amount_credited: 12_000, amount_paid: 52_249, amount_due: 0, settled_at: '2025-03-20T10:00:00.000Z',
  transactions: [
    payment('tra_card', 20_000, '2025-03-16T09:00:00.000Z'),
    payment('tra_transfer', 32_249, '2025-03-20T10:00:00.000Z', { id: null, status: null, type: 'transfer', last_4_digits: null, expiration_date: null, brand: null }),
  ],
});

/** A quote line priced as the pricing engine would: `amount_per_period` × `billing_periods`. */
export const quoteLine = (name: string, over: Partial<QuoteLineItem> = {}): QuoteLineItem => ({
  product_id: `pro_${name.length}`, price_configuration_id: 'prc_1', quantity: 1, name, price_type: 'fee',
  billing_interval: { period: 'months', count: 1 }, commitment_interval: { period: 'years', count: 1 }, amount_per_period: 0, billing_periods: 12, amount: 0, tiers: [], ...over,
});

/** A three-line subscription quote showing every value it can (phases, first invoice, total), pending signature. */
export function quoteFixture(over: Partial<Quote> = {}): Quote {
  const lines = [
    quoteLine('Pro plan', { quantity: 25, amount_per_period: 122_500, amount: 1_470_000 }),
    quoteLine('Premium support and a dedicated customer success manager', { billing_interval: { period: 'months', count: 3 }, amount_per_period: 90_000, billing_periods: 4, amount: 360_000 }),
    quoteLine('Onboarding', { price_type: 'fee', billing_interval: { period: 'once' }, amount_per_period: 250_000, billing_periods: 1, amount: 250_000 }),
  ];
  return {
    id: 'quo_01JQ3M8Z5V4X2Y7T9R6P1N0K3C', number: 'Q-2025-0007', customer_id: 'cus_1', type: 'subscription', status: 'pending_signature', currency: 'EUR',
    amount: lines.reduce((sum, l) => sum + l.amount, 0), line_items: lines, child_subscription_ids: [], invoice_id: null, signed_file: null,
    url: 'https://pay.billing.invalid/quotes/quo_01JQ3M8Z5V4X2Y7T9R6P1N0K3C', sent_at: '2025-03-10T09:00:00.000Z', sent_to: 'billing@globex.example', sent_message: null,
    signed_at: null, signer_name: null, signer_email: null, void_reason: null, voided_at: null, created_at: '2025-03-09T09:00:00.000Z', updated_at: '2025-03-10T09:00:00.000Z',
    invoicing_entity_id: 'ive_1', starts_at: '2025-04-01T00:00:00.000Z', subscription_id: null, promotion_code: null, requires_approval: false, template_id: null,
    crm_opportunity_id: null, comments: 'Prices held until the end of the month.', terms: 'Twelve months, renewed yearly unless cancelled 30 days before the end of the term.',
    owner_email: null, expires_at: '2025-04-09T09:00:00.000Z', collect_payment_details: false, collect_custom_property_ids: [], collect_tax_id: false,
    display_quote_value: true, display_taxes: true, display_price_tiers: 'none', display_phase_value: true, display_first_invoice_amount: true,
    display_documents_in_preview: false, display_subscription_on_update: false, display_total_with_tax: false, post_signature_activation_enabled: false, automatically_start_subscription: false, attachments: [],
    ...over,
  };
}

/** A PNG: `width` × `height` pixels of one colour (8-bit RGB, unfiltered rows, zlib), for logo tests and pictures. */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number] = [29, 78, 216]): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))), chunk('IEND', Buffer.alloc(0)),
  ]);
}
