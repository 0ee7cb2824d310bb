import { mapChange } from '../../shared/domain/events/map-change';
import type { QuoteItem } from '../../shared/domain/quotes/quote';
import { verifyLink } from '../../shared/pages/links';

const quote = (over: Partial<QuoteItem> = {}) =>
  ({
    pk: 'WS#ws_quo#QUO#quo_1', sk: 'QUO', _type: 'quote', _version: 0, gsi1pk: 'WS#ws_quo#LIST#QUO', gsi1sk: 'x', lf: {},
    id: 'quo_1', number: 'QUO-1', type: 'subscription', status: 'draft', customer_id: 'cus_1', amount: 1_000, comments: null,
    updated_at: '2026-01-01T00:00:00.000Z', ...over,
  }) as QuoteItem;
const types = (before: object | undefined, after: object | undefined) => mapChange(before as never, after as never).map((e) => e.type);

describe('mapChange: quotes', () => {
  it('tells a new quote, and the status it was created in when that status has an event', () => {
    expect(types(undefined, quote())).toEqual(['quote.created']);
    expect(types(undefined, quote({ status: 'approved' }))).toEqual(['quote.created', 'quote.approved']);
    expect(types(undefined, quote({ status: 'pending_signature' }))).toEqual(['quote.created', 'quote.sent']);
  });

  it('tells approved, sent, signed and voided when entered', () => {
    expect(types(quote({ status: 'pending_approval' }), quote({ status: 'approved' }))).toEqual(['quote.approved']);
    expect(types(quote({ status: 'draft' }), quote({ status: 'approved' }))).toEqual(['quote.approved']);
    expect(types(quote({ status: 'approved' }), quote({ status: 'pending_signature' }))).toEqual(['quote.sent']);
    for (const from of ['draft', 'pending_approval', 'changes_requested', 'approved', 'pending_signature'] as const) {
      expect(types(quote({ status: from }), quote({ status: 'signed' }))).toEqual(['quote.signed']);
      expect(types(quote({ status: from }), quote({ status: 'voided' }))).toEqual(['quote.voided']);
    }
  });

  it('tells the other moves and every public change as quote.updated, and nothing for an unchanged quote', () => {
    expect(types(quote(), quote({ status: 'pending_approval' }))).toEqual(['quote.updated']);
    expect(types(quote({ status: 'pending_approval' }), quote({ status: 'changes_requested' }))).toEqual(['quote.updated']);
    expect(types(quote(), quote({ comments: 'New terms', updated_at: '2026-01-02T00:00:00.000Z' }))).toEqual(['quote.updated']);
    expect(types(quote(), quote({ updated_at: '2026-01-02T00:00:00.000Z', _version: 1 }))).toEqual([]);
    expect(types(quote(), undefined)).toEqual([]);
  });

  it('gives the public quote as data: its url only once sent, no storage attributes', () => {
    const [created] = mapChange(undefined, quote() as never);
    expect(created!.data).toMatchObject({ id: 'quo_1', number: 'QUO-1', url: null });
    for (const internal of ['pk', 'sk', '_type', '_version', 'gsi1pk', 'gsi1sk', 'lf']) expect(created!.data).not.toHaveProperty(internal);
    const [sent] = mapChange(quote({ status: 'approved' }) as never, quote({ status: 'pending_signature', created_at: '2026-01-01T00:00:00.000Z' }) as never);
    expect(sent!.data).toMatchObject({ status: 'pending_signature' });
    // Its hosted page: a link signed for this quote (docs/hosted-pages.md).
    const token = String((sent!.data as { url: string }).url).split('/').pop()!;
    expect(verifyLink(token, 'quote', new Date('2026-01-02T00:00:00.000Z'))).toMatchObject({ kind: 'quote', id: 'quo_1' });
  });
});
