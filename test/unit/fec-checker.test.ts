/**
 * The FEC checker (test/support/fec-checker.ts) accepts what the FEC writer makes of a random history, and refuses
 * each breach of the format's rules: a test of the test, so that a passing check means something.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { fecBytes } from '../../shared/domain/accounting/fec';
import { journalOf } from '../../shared/domain/accounting/journal';
import { checkFec } from '../support/fec-checker';
import { documentsOf, planArb } from '../support/journal-histories';

const NAME = '732829320FEC20261231.txt';
const context = { accountingCurrency: 'EUR', productAccount: () => undefined, customer: () => ({ name: 'Société Œ', invoicing_entity_id: 'ive_1' }) };
const fecOf = (plans: Parameters<typeof documentsOf>[0][]) =>
  fecBytes(journalOf({ invoices: plans.flatMap((p, n) => documentsOf(p, n)), walletTransactions: [] }, context, { from: '2026-01-01T00:00:00.000Z', to: '2027-01-01T00:00:00.000Z' }), 'EUR', 'Europe/Paris');

const sample = fecOf([{ lines: [{ ex: 1000, rate: 20, product: null }], day: 1, steps: [{ kind: 'pay', share: 1, way: 'manual' }], status: 'to_pay' }, { lines: [{ ex: 500, rate: 0, product: null }], day: 2, steps: [], status: 'to_pay' }]);
const edit = (change: (text: string) => string) => iconv.encode(change(iconv.decode(sample, 'ISO-8859-15')), 'ISO-8859-15');

describe('the FEC checker', () => {
  it('accepts the FEC of any history', () => {
    fc.assert(fc.property(fc.array(planArb, { maxLength: 6 }), (plans) => {
      expect(checkFec(NAME, fecOf(plans)).errors).toEqual([]);
    }), { numRuns: 100 });
  });

  it.each([
    ['a bad file name', NAME.replace('FEC', 'fec'), sample, /file name/],
    ['a missing zone', NAME, edit((t) => t.replace('\tIdevise', '')), /18 zone names/],
    ['an unbalanced entry', NAME, edit((t) => t.replace('\t0,00\t10,00\t', '\t0,00\t10,01\t')), /debit .* credit/],
    ['a gap in a journal', NAME, edit((t) => t.replaceAll('VE000002', 'VE000003')), /follows/],
    ['a date that is not AAAAMMJJ', NAME, edit((t) => t.replace(/\t20261002\t/, '\t2026-10-02\t')), /AAAAMMJJ/],
    ['a dot as decimal separator', NAME, edit((t) => t.replace('\t12,00\t', '\t12.00\t')), /decimal comma/],
    ['UTF-8 instead of ISO 8859-15', NAME, Buffer.from(iconv.decode(sample, 'ISO-8859-15'), 'utf8'), /UTF-8/],
  ])('refuses %s', (_what, name, bytes, error) => {
    const { errors } = checkFec(name, bytes);
    expect(errors.join('\n')).toMatch(error);
  });
});
