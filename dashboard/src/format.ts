import { locale } from './i18n';
import { currencyDigits } from './money';

export { currencyDigits, toMinor } from './money';

/** An amount in minor units, shown in the operator's locale (`1 234,50 €`, `€1,234.50`). */
export const money = (minor: number, currency: string): string =>
  new Intl.NumberFormat(locale(), { style: 'currency', currency }).format(minor / 10 ** currencyDigits(currency));

export const date = (iso: string | null | undefined): string => (iso ? new Intl.DateTimeFormat(locale(), { dateStyle: 'medium' }).format(new Date(iso)) : '—');
export const dateTime = (iso: string | null | undefined): string =>
  iso ? new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)) : '—';
export const count = (n: number): string => new Intl.NumberFormat(locale()).format(n);
