import type { InvoiceItem, PaymentTransaction } from '../invoices/invoice';

/**
 * The default chart of accounts the journal posts to (French Plan Comptable Général numbers, which a FEC expects and
 * which any other chart maps from one to one). A product's `account_code` replaces the revenue account of its lines.
 */
export const ACCOUNTS = {
  receivable: { code: '411000', label: 'Clients' },
  revenue: { code: '706000', label: 'Prestations de services' },
  walletLiability: { code: '419100', label: 'Clients - avances reçues (portefeuille)' },
  writeOff: { code: '654000', label: 'Pertes sur créances irrécouvrables' },
  offeredCredit: { code: '709000', label: 'Rabais, remises et ristournes accordés' },
} as const;

export interface Account {
  code: string;
  label: string;
}

/** VAT collected, one account per rate: `4457` + the rate in hundredths of a percent on 4 digits (20 % → 44572000). */
export function vatAccount(rate: number): Account {
  const hundredths = Math.round(rate * 100);
  return { code: `4457${String(hundredths).padStart(4, '0')}`, label: `TVA collectée ${rate} %` };
}

/** Where the money of a payment or refund goes: a clearing account per payment provider, the bank for the rest. */
export type MoneyWay = 'stripe' | 'sandbox' | 'manual' | 'wallet';

const CLEARING: Record<MoneyWay, Account> = {
  stripe: { code: '511100', label: 'Encaissements à régulariser - Stripe' },
  sandbox: { code: '511900', label: 'Encaissements à régulariser - sandbox' },
  manual: { code: '512000', label: 'Banque' },
  wallet: ACCOUNTS.walletLiability,
};

export const moneyAccount = (way: MoneyWay): Account => CLEARING[way];

/** The provider of a payment, from its reference at the provider (Stripe `pi_`/`ch_`/`re_`, sandbox `sbx_`) or its method. */
export function moneyWayOf(transaction: Pick<PaymentTransaction, 'provider_id' | 'payment_method'>): MoneyWay {
  if (transaction.payment_method?.type === 'wallet') return 'wallet';
  const ref = transaction.provider_id ?? '';
  if (ref.startsWith('sbx_')) return 'sandbox';
  if (/^(pi|ch|re|py)_/.test(ref)) return 'stripe';
  return 'manual';
}

/** A refund goes back the way the money came: the latest succeeded payment of the credited invoice. */
export function refundWayOf(refund: PaymentTransaction, original: InvoiceItem | undefined): MoneyWay {
  if (refund.payment_method?.type === 'wallet') return 'wallet';
  if (refund.provider_id) return moneyWayOf(refund);
  const paid = original?.transactions.filter((t) => t.type === 'payment' && t.status === 'succeeded').at(-1);
  return paid ? moneyWayOf(paid) : 'manual';
}
