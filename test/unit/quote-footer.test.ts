import { wordsFor } from '../../shared/domain/invoices/pdf/labels';
import type { EntityItem } from '../../shared/domain/invoicing-entities/invoicing-entity';
import { quoteSheet } from '../../shared/domain/quotes/pdf';
import { creditNote, invoiceFixture, quoteFixture } from '../support/invoice-fixtures';

/** Hyperline's `quote_footer` (docs/hyperline.md): the footer of the entity's quotes, else its invoice footer. */
describe("a quote's footer", () => {
  const footer = (entity: Partial<EntityItem>) =>
    quoteSheet(quoteFixture(), { seller: invoiceFixture().seller, customer: creditNote().customer, entity: entity as EntityItem }, wordsFor('en', 'UTC')).footer;

  it.each([
    [{ invoice_footer: 'Invoices', quote_footer: 'Quotes' }, 'Quotes'],
    [{ invoice_footer: 'Invoices', quote_footer: null }, 'Invoices'],
    [{ invoice_footer: 'Invoices' }, 'Invoices'],
  ])('of an entity %j is %s', (entity, expected) => expect(footer(entity)).toBe(expected));
});
