import type { Ctx } from '../../context';
import { RuleViolation } from '../../errors';
import { loadWallet } from '../wallets/operations';
import type { Wallet } from '../wallets/wallet';

/** `POST /v1/wallets/{id}/load`: ours (`type` + `amount`) or Hyperline's (`amount` paid, `amount_free` offered). */
export interface LoadRequest {
  type?: 'free' | 'paid';
  amount?: number;
  amount_free?: number;
  comment?: string | null;
}

type Load = { type: 'free' | 'paid'; amount: number };

/** The loads a request asks for, paid first; checked before anything is written. */
export function loadsOf(body: LoadRequest): Load[] {
  if (body.type) {
    if (body.amount_free !== undefined) throw new RuleViolation('conflicting_members', '`amount_free` is Hyperline\'s form: give it without `type`.');
    if (!body.amount) throw new RuleViolation('amount_required', '`type` needs a positive `amount`.');
    return [{ type: body.type, amount: body.amount }];
  }
  const loads: Load[] = [];
  if (body.amount) loads.push({ type: 'paid', amount: body.amount });
  if (body.amount_free) loads.push({ type: 'free', amount: body.amount_free });
  if (loads.length === 0) throw new RuleViolation('amount_required', 'Give a positive `amount` (paid funds) or `amount_free` (offered funds), or `type` with `amount`.');
  return loads;
}

/**
 * Hyperline takes paid and offered funds in one call; here they are two loads. The paid one goes first: it is the
 * one a rule can refuse (an archived customer, no invoicing entity), so a refusal leaves the wallet as it was.
 */
export async function loadFromRequest(ctx: Ctx, id: string, body: LoadRequest): Promise<Wallet> {
  let wallet: Wallet | undefined;
  for (const load of loadsOf(body)) wallet = await loadWallet(ctx, id, { ...load, comment: body.comment });
  return wallet!;
}
