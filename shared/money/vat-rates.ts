/**
 * Standard VAT rates, in percent as exact decimal strings, for the EU-27 plus GB, CH and NO.
 *
 * Sources:
 * - European Commission, DG TAXUD, "VAT rates applied in the Member States of the European Union"
 *   (taxation-customs.ec.europa.eu), and the national announcements of the 2024–2025 changes listed below;
 * - United Kingdom: HM Revenue & Customs, "VAT rates" (gov.uk/vat-rates);
 * - Switzerland: Federal Tax Administration (ESTV/AFC), "MWST-Sätze" (8.1 % since 2024-01-01);
 * - Norway: Skatteetaten, "Merverdiavgift" (25 %).
 *
 * Valid for: the rates in force on 2025-08-01 (the latest change below), and still in force on 2026-01-01 as
 * far as known when this table was written. Recent changes: LU 17 (restored 2024-01-01), CH 8.1 (2024-01-01),
 * FI 25.5 (2024-09-01), SK 23 (2025-01-01), EE 24 (2025-07-01), RO 21 (2025-08-01).
 * The table is data, not law: re-check it against the sources when a rate changes, and date the change here.
 *
 * Only standard rates: reduced rates (per product) and the regional rates of special territories (Azores
 * PT-20, Madeira PT-30, …) are not in the table (docs/taxes.md, "Limitations").
 */
export const STANDARD_VAT_RATES = {
  // EU-27
  AT: '20',
  BE: '21',
  BG: '20',
  CY: '19',
  CZ: '21',
  DE: '19',
  DK: '25',
  EE: '24',
  ES: '21',
  FI: '25.5',
  FR: '20',
  GR: '24',
  HR: '25',
  HU: '27',
  IE: '23',
  IT: '22',
  LT: '21',
  LU: '17',
  LV: '21',
  MT: '18',
  NL: '21',
  PL: '23',
  PT: '23',
  RO: '21',
  SE: '25',
  SI: '22',
  SK: '23',
  // Outside the EU
  GB: '20',
  CH: '8.1',
  NO: '25',
} as const satisfies Record<string, string>;

export type VatCountry = keyof typeof STANDARD_VAT_RATES;

/** The 27 member states of the European Union (ISO 3166-1 alpha-2; Greece is GR, not EL). */
export const EU_COUNTRIES: readonly string[] = Object.freeze([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
  'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
]);

const EU = new Set(EU_COUNTRIES);

export const isEuCountry = (country: string): boolean => EU.has(country);

/** The standard VAT rate of a country in the table, as an exact decimal string ('25.5'), else undefined. */
export function standardVatRate(country: string): string | undefined {
  return Object.hasOwn(STANDARD_VAT_RATES, country) ? STANDARD_VAT_RATES[country as VatCountry] : undefined;
}
