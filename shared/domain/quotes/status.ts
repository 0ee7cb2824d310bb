import type { Ctx } from '../../context';
import { putIfUnchanged, retryOnRace } from '../../db/items';
import { InvalidRequest, RuleViolation } from '../../errors';
import { quoteListFields, toQuote, type Quote, type QuoteItem } from './quote';
import { findQuoteItem } from './read';
import { assertMove, type QuoteMove } from './transitions';

/** A move that changes the quote alone: one put conditioned on the version read, decided again after a lost race. */
async function move(ctx: Ctx, id: string, name: QuoteMove, change: (current: QuoteItem, now: string) => Partial<QuoteItem>): Promise<Quote> {
  return retryOnRace(async () => {
    const current = await findQuoteItem(ctx, id);
    assertMove(current, name);
    const now = ctx.clock.now().toISOString();
    const next: QuoteItem = { ...current, ...change(current, now), updated_at: now };
    next.lf = quoteListFields(next);
    return toQuote(await putIfUnchanged(next, current._version));
  });
}

/** 422 `quote_expired` once the quote's `expires_at` has passed at `at`. */
export function assertNotExpired(quote: Pick<QuoteItem, 'id' | 'expires_at'>, at: string, what: string): void {
  if (quote.expires_at !== null && Date.parse(at) > Date.parse(quote.expires_at)) {
    throw new RuleViolation('quote_expired', `Quote '${quote.id}' expired at ${quote.expires_at}: it cannot ${what}. Extend expires_at first (in draft) or void it.`);
  }
}

/** draft, changes_requested → pending_approval when the quote requires approval, else approved. */
export const finalizeQuote = (ctx: Ctx, id: string) =>
  move(ctx, id, 'finalize', (current) => ({ status: current.requires_approval ? 'pending_approval' : 'approved' }));

export const approveQuote = (ctx: Ctx, id: string) => move(ctx, id, 'approve', () => ({ status: 'approved' }));

export const requestQuoteChanges = (ctx: Ctx, id: string) => move(ctx, id, 'request_changes', () => ({ status: 'changes_requested' }));

/**
 * approved → pending_signature: the quote gets its public `url`; whom it was sent to and the message are recorded
 * (the `quote.sent` event carries them: the service itself sends no e-mail).
 */
export const sendQuote = (ctx: Ctx, id: string, body: { email: string; message?: string | null }) =>
  move(ctx, id, 'send', (current, now) => {
    assertNotExpired(current, now, 'be sent');
    return { status: 'pending_signature', sent_at: now, sent_to: body.email, sent_message: body.message ?? null };
  });

/** Any status but signed and voided → voided, with the reason (required: 1–1000 characters, not only blanks). */
export async function voidQuote(ctx: Ctx, id: string, body: { reason: string }): Promise<Quote> {
  if (body.reason.trim() === '') throw new InvalidRequest('Invalid body: body.reason must not be blank.', [{ path: 'body.reason', message: 'must not be blank' }]);
  return move(ctx, id, 'void', (_current, now) => ({ status: 'voided', void_reason: body.reason, voided_at: now }));
}
