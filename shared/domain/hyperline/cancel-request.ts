import type { Ctx } from '../../context';
import { RuleViolation } from '../../errors';
import { cancelSubscription, type CancelInput, type CancelMode } from '../subscriptions/cancel';
import { getSubscription } from '../subscriptions/read';
import type { Subscription } from '../subscriptions/subscription';
import { oneOf } from './aliases';

/** `POST /v1/subscriptions/{id}/cancel`: ours (`mode`, `prorate`) or Hyperline's (`cancel_at`, `pro_rata`). */
export interface CancelRequest extends CancelInput {
  cancel_at?: CancelMode | string;
  pro_rata?: boolean;
}

/**
 * A date for `cancel_at`: this service cancels now or at the current period's end only (a cancellation at another
 * date would need a period that ends there: a change, not a cancellation).
 */
async function modeAt(ctx: Ctx, id: string, at: string): Promise<CancelMode> {
  if (Date.parse(at) <= ctx.clock.now().getTime()) return 'immediately';
  const subscription = await getSubscription(ctx, id);
  if (subscription.current_period_ends_at && Date.parse(subscription.current_period_ends_at) === Date.parse(at)) return 'end_of_period';
  throw new RuleViolation('unsupported_cancel_date', `cancel_at must be now, a past date, or the current period's end (${subscription.current_period_ends_at ?? 'none'}).`);
}

export async function cancelFromRequest(ctx: Ctx, id: string, body: CancelRequest = {}): Promise<Subscription> {
  const when = oneOf<string>(body.mode, body.cancel_at, 'mode and cancel_at');
  const mode = when === undefined || when === 'immediately' || when === 'end_of_period' ? when : await modeAt(ctx, id, when);
  const prorate = oneOf(body.prorate, body.pro_rata, 'prorate and pro_rata');
  return cancelSubscription(ctx, id, { ...(mode && { mode }), ...(prorate !== undefined && { prorate }) });
}
