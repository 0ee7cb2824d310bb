/**
 * The shape of a tax id per country (the portal checks it before saving; the API stores tax ids unverified, input.ts).
 * EU VAT numbers after the European Commission's VIES formats, with their country prefix (Greece's is EL); the UK,
 * Switzerland and Norway likewise. Other countries: any 2 to 64 letters and digits, as no shape is known here.
 */
const SHAPES: Record<string, RegExp> = {
  AT: /^ATU\d{8}$/, BE: /^BE[01]\d{9}$/, BG: /^BG\d{9,10}$/, CY: /^CY\d{8}[A-Z]$/, CZ: /^CZ\d{8,10}$/, DE: /^DE\d{9}$/,
  DK: /^DK\d{8}$/, EE: /^EE\d{9}$/, GR: /^EL\d{9}$/, ES: /^ES[A-Z0-9]\d{7}[A-Z0-9]$/, FI: /^FI\d{8}$/,
  FR: /^FR[A-HJ-NP-Z0-9]{2}\d{9}$/, HR: /^HR\d{11}$/, HU: /^HU\d{8}$/, IE: /^IE(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^IT\d{11}$/, LT: /^LT(\d{9}|\d{12})$/, LU: /^LU\d{8}$/, LV: /^LV\d{11}$/, MT: /^MT\d{8}$/, NL: /^NL\d{9}B\d{2}$/,
  PL: /^PL\d{10}$/, PT: /^PT\d{9}$/, RO: /^RO\d{2,10}$/, SE: /^SE\d{10}01$/, SI: /^SI\d{8}$/, SK: /^SK\d{10}$/,
  GB: /^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/, XI: /^XI(\d{9}|\d{12})$/, CH: /^CHE\d{9}(MWST|TVA|IVA)?$/, NO: /^NO\d{9}(MVA)?$/,
};
const PREFIX: Record<string, string> = { GR: 'EL' };
const ANY = /^[A-Z0-9]{2,64}$/;

/**
 * The tax id as it is written (upper case, without spaces, dots or dashes, with its country prefix added when it was
 * left out), or undefined when it does not have the shape of `country`'s.
 */
export function normalizedTaxId(country: string | null | undefined, value: string): string | undefined {
  const compact = value.toUpperCase().replace(/[\s.\-]/g, '');
  const code = (country ?? '').toUpperCase();
  const shape = SHAPES[code];
  if (!shape) return ANY.test(compact) ? compact : undefined;
  const prefix = PREFIX[code] ?? code;
  const prefixed = compact.startsWith(prefix) ? compact : `${prefix}${compact}`;
  return shape.test(prefixed) ? prefixed : undefined;
}
