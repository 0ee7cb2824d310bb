import { normalizedTaxId } from '../../shared/domain/customers/tax-id-format';

describe('the portal\'s tax id check', () => {
  it('normalises a tax id of the billing country\'s format, adding its prefix when left out', () => {
    expect(normalizedTaxId('DE', 'de 123 456 789')).toBe('DE123456789');
    expect(normalizedTaxId('DE', '123456789')).toBe('DE123456789');
    expect(normalizedTaxId('FR', 'FR 40 303 265 045')).toBe('FR40303265045');
    expect(normalizedTaxId('GR', '123456789')).toBe('EL123456789');
    expect(normalizedTaxId('NL', 'NL123456789B01')).toBe('NL123456789B01');
    expect(normalizedTaxId('CH', 'CHE-123.456.789 MWST')).toBe('CHE123456789MWST');
    expect(normalizedTaxId('AT', 'U12345678')).toBe('ATU12345678');
  });

  it('refuses another country\'s or a malformed tax id', () => {
    expect(normalizedTaxId('DE', 'FR40303265045')).toBeUndefined();
    expect(normalizedTaxId('DE', 'DE12345678')).toBeUndefined();
    expect(normalizedTaxId('NL', 'NL123456789')).toBeUndefined();
    expect(normalizedTaxId('FR', 'FRIO303265045')).toBeUndefined();
  });

  it('takes any letters and digits where no format is known', () => {
    expect(normalizedTaxId('US', '12-3456789')).toBe('123456789');
    expect(normalizedTaxId(null, 'abc')).toBe('ABC');
    expect(normalizedTaxId('US', '#!')).toBeUndefined();
  });
});
