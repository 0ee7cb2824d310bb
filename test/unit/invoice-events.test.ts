import { makeCtx } from '../../shared/context';
import { mapChange } from '../../shared/domain/events/map-change';
import { verifyLink } from '../../shared/pages/links';
import { newEntityItem } from '../../shared/domain/invoicing-entities/invoicing-entity';
import type { InvoiceItem } from '../../shared/domain/invoices/invoice';

const ctx = makeCtx('ws_inv', 'req');
const invoice = (over: Partial<InvoiceItem> = {}) =>
  ({ pk: 'WS#ws_inv#INV#inv_1', sk: 'INV', _type: 'invoice', _version: 0, id: 'inv_1', type: 'invoice', status: 'draft', total_amount: 100, ...over }) as InvoiceItem;
const types = (before: object | undefined, after: object | undefined) => mapChange(before as never, after as never).map((e) => e.type);

describe('mapChange: invoices', () => {
  it('tells a new invoice, and a new one created to_pay is ready at once', () => {
    expect(types(undefined, invoice())).toEqual(['invoice.created']);
    expect(types(undefined, invoice({ status: 'to_pay' }))).toEqual(['invoice.created', 'invoice.ready']);
  });

  it("a subscription's invoice that becomes paid is Hyperline's subscription.charged too (once), with the invoice", () => {
    const paid = invoice({ status: 'paid', subscription_id: 'sub_1' });
    expect(mapChange(invoice({ status: 'to_pay', subscription_id: 'sub_1' }) as never, paid as never).map((e) => [e.type, (e.data as { id: string }).id]))
      .toEqual([['invoice.settled', 'inv_1'], ['subscription.charged', 'inv_1']]);
    expect(types(paid, { ...paid, properties: { a: 1 } })).toEqual([]);
    expect(types(invoice({ status: 'to_pay', subscription_id: null }), invoice({ status: 'paid', subscription_id: null }))).toEqual(['invoice.settled']);
  });

  it('tells each status entered: grace period, ready, settled, errored, voided', () => {
    expect(types(invoice(), invoice({ status: 'grace_period' }))).toEqual(['invoice.grace_period.started']);
    expect(types(invoice({ status: 'grace_period' }), invoice({ status: 'to_pay' }))).toEqual(['invoice.ready']);
    expect(types(invoice({ status: 'to_pay' }), invoice({ status: 'partially_paid' }))).toEqual([]);
    expect(types(invoice({ status: 'partially_paid' }), invoice({ status: 'paid' }))).toEqual(['invoice.settled']);
    expect(types(invoice({ status: 'to_pay' }), invoice({ status: 'error' }))).toEqual(['invoice.errored']);
    expect(types(invoice({ status: 'to_pay' }), invoice({ status: 'voided' }))).toEqual(['invoice.voided']);
    expect(types(invoice({ status: 'paid' }), invoice({ status: 'paid', properties: { a: 1 } }))).toEqual([]);
  });

  it('tells credit notes as ready, and settled once refunded', () => {
    expect(types(undefined, invoice({ type: 'credit_note', status: 'paid' }))).toEqual(['credit_note.ready', 'credit_note.settled']);
    expect(types(undefined, invoice({ type: 'credit_note', status: 'to_pay' }))).toEqual(['credit_note.ready']);
    expect(types(invoice({ type: 'credit_note', status: 'to_pay' }), invoice({ type: 'credit_note', status: 'paid' }))).toEqual(['credit_note.settled']);
  });

  it('gives the public invoice as data', () => {
    const [event] = mapChange(undefined, invoice({ emitted_at: '2025-12-01T00:00:00.000Z', due_at: '2025-12-31T00:00:00.000Z' }) as never);
    expect(event!.data).toMatchObject({ id: 'inv_1' });
    // Its hosted page: a link signed for this invoice (docs/hosted-pages.md).
    const token = String((event!.data as { public_url: string }).public_url).split('/').pop()!;
    expect(verifyLink(token, 'invoice', new Date('2026-01-01T00:00:00Z'))).toMatchObject({ kind: 'invoice', id: 'inv_1' });
    expect(event!.data).not.toHaveProperty('pk');
    expect(event!.data).not.toHaveProperty('credited_by_line');
  });

  it('does not tell numbering as an invoicing entity update', () => {
    const entity = newEntityItem(ctx, 'ive_1', { name: 'Acme', country: 'FR', currency: 'EUR' }, '2026-01-01T00:00:00.000Z');
    expect(types(entity, { ...entity, next_invoice_number: 2, _version: 1 })).toEqual([]);
    expect(types(entity, { ...entity, invoice_footer: 'New' })).toEqual(['invoicing_entity.updated']);
  });
});
