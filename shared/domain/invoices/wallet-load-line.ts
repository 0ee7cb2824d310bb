import { newId } from '../../ids';
import type { PricedLine } from './amounts';

/** The one line of a paid wallet load's invoice. Prepaid funds are not taxed at load (the invoices they pay are). */
export const walletLoadLine = (amount: number, comment: string | null): PricedLine => ({
  id: newId('ili'),
  name: 'Wallet load',
  description: comment,
  entry_type: 'wallet_load',
  product_id: null,
  product_type: null,
  price_id: null,
  units_count: 1,
  unit_amount: amount,
  gross: amount,
  tax_rate_id: null,
  period_starts_at: null,
  period_ends_at: null,
  revenue_type: 'one_off',
  revenue_interval_count: null,
  revenue_interval_period: null,
  display_unit_amount: true,
  display_service_period: false,
  original_line_item_id: null,
});
