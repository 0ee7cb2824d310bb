import { formatMoney } from '../../../money/format';

/**
 * Stripe's three-decimal currencies (docs.stripe.com/currencies, "Three-decimal currencies"): amounts in thousandths,
 * whose last digit must be 0 for Stripe's payment partners. The service's own invoices already count these currencies
 * in tens (amounts.ts, `amountStep`); only an amount left by another payment (a manual one of a few fils) is not.
 */
export const STRIPE_THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/**
 * Why Stripe cannot take this amount, or undefined when it can. Such an amount is refused before Stripe is asked, never
 * rounded: rounding would charge more than is due, or leave some of it due with the invoice marked as charged.
 */
export function stripeAmountRefusal(amount: number, currency: string): string | undefined {
  const code = currency.toUpperCase();
  if (!STRIPE_THREE_DECIMAL.has(code) || amount % 10 === 0) return undefined;
  return `Stripe takes ${code} amounts in multiples of 0.010 ${code} only (the last of the three decimals 0); ${formatMoney(amount, code)} cannot be charged through Stripe: settle the last fils otherwise (a manual payment or a credit note).`;
}
