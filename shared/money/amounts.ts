/**
 * Line and invoice amounts (docs/taxes.md). Amounts are non-negative safe integers in the currency's smallest
 * unit; the currency's exponent never enters the arithmetic. ONE rounding rule: per line,
 *   tax_amount = round half-up(amount_excluding_tax × rate / 100)
 * computed exactly (BigInt, the pricing engine's roundHalfUp); invoice totals are sums of rounded lines and
 * total_amount = amount_excluding_tax + tax_amount always.
 */
import { PERCENT_DENOMINATOR, roundHalfUp } from '../domain/pricing/arithmetic';
import { scaledRate } from './tax-rate';

export interface LineInput {
  /** With `quantity`: the line's gross amount is unitAmount × quantity (both non-negative integers). */
  unitAmount?: number;
  quantity?: number;
  /** Alternatively the gross amount directly (e.g. a custom line or the pricing engine's result). Before discount. */
  amountExcludingTax?: number;
  /** Discount on the line, in minor units, at most the gross amount. Default 0. */
  discountAmount?: number;
  /** Percentage as a decimal string or number with at most 4 decimals ('20', '25.5', 8.1). */
  taxRate: string | number;
}

export interface LineAmounts {
  /** Gross − discount: the taxable base. */
  amount_excluding_tax: number;
  discount_amount: number;
  tax_amount: number;
  /** amount_excluding_tax + tax_amount. */
  amount: number;
}

export interface InvoiceTotals {
  amount_excluding_tax: number;
  tax_amount: number;
  total_amount: number;
  discount_amount: number;
}

function amount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative safe integer (minor units), got ${String(value)}`);
  }
  return value;
}

function safe(name: string, value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`${name} exceeds the largest safe integer`);
  return Number(value);
}

/** Exact tax of a taxable base: round half-up(base × rate / 100). */
export function taxAmount(base: number, rate: string | number): number {
  return safe('tax_amount', roundHalfUp(BigInt(amount('amount_excluding_tax', base)) * scaledRate(rate), PERCENT_DENOMINATOR));
}

export function lineAmounts(input: LineInput): LineAmounts {
  const hasUnit = input.unitAmount !== undefined || input.quantity !== undefined;
  if (hasUnit === (input.amountExcludingTax !== undefined)) {
    throw new RangeError('Give either unitAmount and quantity, or amountExcludingTax');
  }
  const gross = hasUnit
    ? safe('amount_excluding_tax', BigInt(amount('unitAmount', input.unitAmount)) * BigInt(amount('quantity', input.quantity)))
    : amount('amountExcludingTax', input.amountExcludingTax);
  const discount = amount('discountAmount', input.discountAmount ?? 0);
  if (discount > gross) throw new RangeError(`discountAmount ${discount} exceeds the line amount ${gross}`);
  const base = gross - discount;
  const tax = taxAmount(base, input.taxRate);
  return { amount_excluding_tax: base, discount_amount: discount, tax_amount: tax, amount: safe('amount', BigInt(base) + BigInt(tax)) };
}

/** Sums of the rounded lines; no rounding happens at the invoice level. */
export function invoiceTotals(lines: readonly LineAmounts[]): InvoiceTotals {
  let excl = 0n;
  let tax = 0n;
  let discount = 0n;
  for (const line of lines) {
    excl += BigInt(amount('amount_excluding_tax', line.amount_excluding_tax));
    tax += BigInt(amount('tax_amount', line.tax_amount));
    discount += BigInt(amount('discount_amount', line.discount_amount));
  }
  return {
    amount_excluding_tax: safe('amount_excluding_tax', excl),
    tax_amount: safe('tax_amount', tax),
    total_amount: safe('total_amount', excl + tax),
    discount_amount: safe('discount_amount', discount),
  };
}

/**
 * amount_due = total_amount − amount_paid − amount_credited, exactly (amount_credited: what credit notes settled of
 * the unpaid part, docs/invoices.md). Never negative: a payment or credit beyond the total is refused (RangeError)
 * rather than clamped, so the identity always holds; callers reject overpayments before this.
 */
export function amountDue(total: number, paid: number, credited = 0): number {
  amount('total_amount', total);
  amount('amount_paid', paid);
  amount('amount_credited', credited);
  if (paid + credited > total) throw new RangeError(`amount_paid ${paid} + amount_credited ${credited} exceeds total_amount ${total}`);
  return total - paid - credited;
}
