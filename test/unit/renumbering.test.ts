import { makeCtx } from '../../shared/context';
import { newEntityItem } from '../../shared/domain/invoicing-entities/invoicing-entity';
import { renumberable } from '../../shared/domain/subscriptions/billing-batch';

/** When a batch of renewals that lost the numbering counter keeps its invoices under new numbers, or is built again. */
const ctx = makeCtx('ws_renumbering', 'test');
const read = { ...newEntityItem(ctx, 'ive_1', { name: 'Acme SAS', country: 'FR', currency: 'EUR', timezone: 'Europe/Paris' }, '2026-11-01T00:00:00.000Z'), next_invoice_number: 41 };
const taken = { ...read, next_invoice_number: 44, _version: read._version + 1 };
const builtAt = (at: string) => ({ emitted_at: at });

describe('renumberable: a batch that lost its numbers keeps its built invoices only when nothing but the numbers changed', () => {
  it('keeps them when only the counter moved, the same day in the entity\'s zone', () => {
    expect(renumberable(read, taken, builtAt('2026-11-26T10:00:00.000Z'), new Date('2026-11-26T10:00:00.250Z'))).toBe(true);
    // 23:30 UTC is already the 27th in Paris; so is now: the same day there.
    expect(renumberable(read, taken, builtAt('2026-11-26T23:30:00.000Z'), new Date('2026-11-26T23:45:00.000Z'))).toBe(true);
  });

  it('builds them again once a new day began in the entity\'s zone: numbers must not run ahead of dates', () => {
    // 22:59:59 UTC is the 26th in Paris, 23:00:01 UTC the 27th.
    expect(renumberable(read, taken, builtAt('2026-11-26T22:59:59.900Z'), new Date('2026-11-26T23:00:00.100Z'))).toBe(false);
  });

  it('builds them again when the entity changed in more than its counters', () => {
    for (const change of [{ invoice_number_pattern: 'F-{number}' }, { name: 'Acme Group SAS' }, { timezone: 'America/New_York' }]) {
      expect(renumberable(read, { ...taken, ...change }, builtAt('2026-11-26T10:00:00.000Z'), new Date('2026-11-26T10:00:01.000Z'))).toBe(false);
    }
    // Its other counters moving (a credit note numbered meanwhile) change nothing the invoices carry.
    expect(renumberable(read, { ...taken, next_credit_note_number: read.next_credit_note_number + 1 }, builtAt('2026-11-26T10:00:00.000Z'), new Date('2026-11-26T10:00:01.000Z'))).toBe(true);
  });
});
