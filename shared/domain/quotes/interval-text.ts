import type { BillingInterval } from '../catalog/price-configuration';
import type { MessageKey, Translate } from '../../i18n/catalog';

const SINGULAR: Record<string, MessageKey> = { days: 'period.day', weeks: 'period.week', months: 'period.month', years: 'period.year' };

/** How often a quote's line bills, in the reader's words ("Monthly", "Every 3 months", "Once"): its page and its PDF. */
export function intervalText({ t }: { t: Translate }, interval: BillingInterval): string {
  if (interval.period === 'once') return t('period.once');
  return interval.count === 1 ? t(SINGULAR[interval.period]!) : t(`period.${interval.period}`, { count: interval.count });
}
