import type { EventDraft, EventType } from '../events/catalog';
import { changedPublicly } from '../events/changed';
import { toQuote, type QuoteItem, type QuoteStatus } from './quote';

/** What entering a status tells (decisions.md, "Webhook messages"); other statuses entered are updates. */
const QUOTE_STATUS_EVENTS: Partial<Record<QuoteStatus, EventType>> = {
  approved: 'quote.approved',
  pending_signature: 'quote.sent',
  signed: 'quote.signed',
  voided: 'quote.voided',
};

/**
 * Quotes: `quote.created` when written (followed by `quote.approved` or `quote.sent` when created in that status),
 * then one event per status entered (finalize into pending_approval and request-changes are `quote.updated`), and
 * `quote.updated` for any other change of the public quote (a PATCH). Data is the quote as returned by the API.
 */
export function quoteEvents(before: QuoteItem | undefined, after: QuoteItem | undefined): EventDraft[] {
  if (!after) return [];
  const data = toQuote(after);
  const entered = before?.status !== after.status ? after.status : undefined;
  const status = entered && QUOTE_STATUS_EVENTS[entered];
  if (!before) return [{ type: 'quote.created', data }, ...(status ? [{ type: status, data }] : [])];
  if (status) return [{ type: status, data }];
  return entered || changedPublicly(toQuote(before), data) ? [{ type: 'quote.updated', data }] : [];
}
