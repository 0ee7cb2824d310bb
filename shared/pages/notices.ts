import type { MessageKey } from '../i18n/catalog';
import type { ViewContext } from './views/parts';

/**
 * What a page says after one of its forms (post → 303 → `?notice=<name>`): a fixed list, so the query can carry no
 * text of its own into the page.
 */
const NOTICES = {
  paid: ['pay.paid', 'ok'],
  in_progress: ['pay.in_progress', 'info'],
  card_refused: ['pay.card_refused', 'error'],
  too_many_attempts: ['pay.too_many_attempts', 'error'],
  form_expired: ['form.expired', 'error'],
  card_added: ['portal.card_added', 'ok'],
  card_removed: ['portal.card_removed', 'ok'],
  default_changed: ['portal.default_changed', 'ok'],
  subscription_cancelled: ['portal.subscription_cancelled', 'ok'],
  subscription_reactivated: ['portal.subscription_reactivated', 'ok'],
  subscription_changed: ['portal.subscription_changed', 'ok'],
  billing_updated: ['portal.billing_updated', 'ok'],
  not_allowed: ['portal.not_allowed', 'error'],
  action_refused: ['portal.action_refused', 'error'],
  tax_id_invalid: ['portal.tax_id_invalid', 'error'],
  email_invalid: ['portal.email_invalid', 'error'],
  signed: ['quote.signed_thanks', 'ok'],
  not_signable: ['quote.not_signable', 'error'],
} as const satisfies Record<string, readonly [MessageKey, 'ok' | 'error' | 'info']>;

export type Notice = keyof typeof NOTICES;
export const NOTICE_NAMES = Object.keys(NOTICES) as Notice[];

export function flashFor({ t }: ViewContext, notice: unknown): { text: string; kind: 'ok' | 'error' | 'info' } | undefined {
  if (typeof notice !== 'string' || !Object.hasOwn(NOTICES, notice)) return undefined;
  const [key, kind] = NOTICES[notice as Notice];
  return { text: t(key), kind };
}
