import type { Ctx } from '../../context';
import { withEffectClaim } from '../../db/effect-claim';
import { DomainError } from '../../errors';
import { claimKey, completeKey, fingerprint, releaseKey } from '../../http/idempotency';

/** What a form submission came to: done now, or done before (a double click, a reload: nothing applied again). */
export type Submission<T> = { applied: true; result: T } | { applied: false; outcome: string };

/**
 * Runs the effect of one submitted form of a page exactly once, under the same idempotency records as an API request
 * carrying an `Idempotency-Key` (shared/http/idempotency.ts): the key is the form's nonce (csrf.ts), so a second
 * submission of the same form (double click, reload, resend) finds the first one's record and applies nothing.
 * Its transactions carry the record's completion (effect-claim.ts), and a payment provider receives a key derived
 * from it, exactly as `POST /v1/invoices/{id}/charge` under an `Idempotency-Key` does.
 * A second submission while the first still runs is a 409 `idempotency_key_in_progress`.
 */
export async function submitOnce<T>(ctx: Ctx, action: string, nonce: string, input: unknown, effect: () => Promise<T>): Promise<Submission<T>> {
  const print = fingerprint({ method: 'POST', routeId: action, path: {}, query: {}, body: input });
  const claimed = await claimKey(ctx, `page:${action}:${nonce}`, print, action);
  if ('replay' in claimed) return { applied: false, outcome: claimed.replay.response?.body ?? '' };
  if ('committed' in claimed) return { applied: false, outcome: 'committed' };
  const record = claimed.item;
  try {
    const result = await withEffectClaim({ pk: record.pk, sk: record.sk, request_id: record.request_id, committed: 0 }, effect);
    await completeKey(record, { status_code: 200, headers: {}, body: 'done' });
    return { applied: true, result };
  } catch (error) {
    // As the API does: a refusal (4xx) is remembered, so resending the form answers the same; anything else frees it.
    if (error instanceof DomainError && error.status < 500) await completeKey(record, { status_code: error.status, headers: {}, body: error.code }).catch(() => undefined);
    else await releaseKey(record).catch(() => undefined);
    throw error;
  }
}

