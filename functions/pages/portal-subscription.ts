import { portalSubscriptionAction, type PortalSubscriptionAction } from '../../shared/domain/pages/portal-actions';
import type { Notice } from '../../shared/pages/notices';
import { route } from '../../shared/schemas/generated/portalSubscription.js';
import { portalFormHandler, type Form } from './portal-action';

const DONE: Record<PortalSubscriptionAction['action'], Notice> = { cancel: 'subscription_cancelled', reactivate: 'subscription_reactivated', change: 'subscription_changed' };

const actionOf = (form: Form) => form.action as PortalSubscriptionAction['action'];

/** A subscription form of the portal: cancel, undo the cancellation, or confirm a previewed change. */
export const handler = portalFormHandler(route, {
  purpose: (form) => `subscription_${actionOf(form)}`,
  run: (ctx, session, form, nonce) => {
    const subscription_id = form.subscription_id ?? '';
    const action = actionOf(form);
    const input: PortalSubscriptionAction = action === 'change'
      ? { action, subscription_id, item: form.item ?? '', price_configuration_id: form.price_configuration_id ?? '', quantity: form.quantity ?? '' }
      : { action, subscription_id };
    return portalSubscriptionAction(ctx, session, input, nonce);
  },
  done: (form) => DONE[actionOf(form)],
  refused: (error) => (error.code === 'portal_action_not_allowed' ? 'not_allowed' : 'action_refused'),
});
