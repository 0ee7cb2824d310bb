import type { Ctx } from '../../context';
import { resumeSubscription, undoCancellation } from '../subscriptions/lifecycle';
import { getSubscription } from '../subscriptions/read';
import type { Subscription } from '../subscriptions/subscription';

/**
 * `POST /v1/subscriptions/{id}/reactivate`, Hyperline's meaning: a paused subscription goes on (as `resume` without
 * an invoice for the rest of the period). Until the deprecation in docs/api.md ends, a subscription that is not
 * paused but has a cancellation scheduled has it undone, as this route did before; `uncancel` is that action's name
 * now. Each action checks the state again as it writes, so a change in between is a 409, never a wrong move.
 */
export async function reactivateSubscription(ctx: Ctx, id: string): Promise<Subscription> {
  const current = await getSubscription(ctx, id);
  return current.status === 'paused' ? resumeSubscription(ctx, id) : undoCancellation(ctx, id);
}
