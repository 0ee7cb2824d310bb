import type Stripe from 'stripe';
import type { Ctx } from '../../../context';
import { getItem } from '../../../db/items';
import { NotFound, RuleViolation } from '../../../errors';
import { appliedEventPut, type AppliedEvent } from '../../invoices/settle-pending';
import { saveAttachedMethod } from '../../payment-methods/create';
import { methodReferenceKey } from '../../payment-methods/payment-method';
import { atStripe } from './errors';
import { savedMethod } from './provider';

/**
 * `setup_intent.succeeded`: the PaymentMethod a SetupIntent of ours (POST /v1/customers/{id}/setup-intents) attached
 * is saved for the customer its metadata names, as the merchant's frontend would save it, unless it was saved already
 * (by the frontend, or an earlier event: its reference item exists, even if deleted since). Read from Stripe as it
 * now is (a method detached since is not saved); the event is recorded with the method.
 */
export async function applySetupIntent(ctx: Ctx, stripe: Stripe, intent: Stripe.SetupIntent, accountId: string, event: AppliedEvent): Promise<'recorded' | 'nothing' | 'duplicate'> {
  if (await getItem(event.key, true)) return 'duplicate';
  const current = await atStripe(() => stripe.setupIntents.retrieve(intent.id, { expand: ['payment_method'] }));
  const method = current.payment_method;
  const customerId = current.metadata?.customer_id;
  if (current.status !== 'succeeded' || current.metadata?.workspace_id !== ctx.workspaceId || !customerId) return 'nothing';
  if (!method || typeof method === 'string' || !method.customer) return 'nothing';
  const referenceKey = methodReferenceKey(ctx, 'stripe', method.id);
  let outcome: 'recorded' | 'nothing' | 'duplicate' = 'recorded';
  try {
    await saveAttachedMethod(ctx, customerId, 'stripe', savedMethod(method, accountId), {
      once: true,
      also: async () => {
        if (await getItem(event.key, true)) outcome = 'duplicate';
        else if (await getItem(referenceKey, true)) outcome = 'nothing';
        else return [appliedEventPut(event)];
        return undefined;
      },
    });
  } catch (error) {
    // The customer is gone or has no currency, or the method is of a type not saved: nothing to save.
    if (error instanceof NotFound || error instanceof RuleViolation) return 'nothing';
    throw error;
  }
  return outcome;
}
