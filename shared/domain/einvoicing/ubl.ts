/**
 * UBL 2.1 Invoice (380) or CreditNote (381) conforming to EN 16931, from the model. Elements follow the order of
 * the UBL 2.1 schemas.
 */
import type { EInvoice, EParty, EVatBreakdown } from './model';
import { EN16931_SPECIFICATION } from './model';
import { leaf, node, XML_DECLARATION } from './xml';

const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

const taxScheme = node('cac:TaxScheme', [leaf('cbc:ID', 'VAT')]);

const party = (wrapper: string, p: EParty) => node(wrapper, [node('cac:Party', [
  p.email && leaf('cbc:EndpointID', p.email, { schemeID: 'EM' }),
  p.tradeName && node('cac:PartyName', [leaf('cbc:Name', p.tradeName)]),
  node('cac:PostalAddress', [
    leaf('cbc:StreetName', p.address.line1), leaf('cbc:AdditionalStreetName', p.address.line2), leaf('cbc:CityName', p.address.city),
    leaf('cbc:PostalZone', p.address.zip), leaf('cbc:CountrySubentity', p.address.state),
    node('cac:Country', [leaf('cbc:IdentificationCode', p.address.country)]),
  ]),
  p.vatId && node('cac:PartyTaxScheme', [leaf('cbc:CompanyID', p.vatId), taxScheme]),
  p.taxRegistrationId && node('cac:PartyTaxScheme', [leaf('cbc:CompanyID', p.taxRegistrationId), node('cac:TaxScheme', [leaf('cbc:ID', 'FC')])]),
  node('cac:PartyLegalEntity', [
    leaf('cbc:RegistrationName', p.name),
    p.legalId && leaf('cbc:CompanyID', p.legalId.value, { schemeID: p.legalId.scheme ?? undefined }),
    leaf('cbc:CompanyLegalForm', p.legalInfo),
  ]),
])]);

const category = (name: string, v: Pick<EVatBreakdown, 'category' | 'rate'> & Partial<EVatBreakdown>) => node(name, [
  leaf('cbc:ID', v.category), leaf('cbc:Percent', v.rate), leaf('cbc:TaxExemptionReasonCode', v.exemptionCode), leaf('cbc:TaxExemptionReason', v.exemptionReason),
  taxScheme,
]);

const period = (start: string | null, end: string | null) =>
  start || end ? node('cac:InvoicePeriod', [leaf('cbc:StartDate', start), leaf('cbc:EndDate', end)]) : '';

export function toUbl(e: EInvoice): string {
  const credit = e.typeCode === '381';
  const root = credit ? 'CreditNote' : 'Invoice';
  const cur = { currencyID: e.currency };
  const lines = e.lines.map((l) => node(credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine', [
    leaf('cbc:ID', l.id),
    leaf(credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', l.quantity, { unitCode: l.unitCode }),
    leaf('cbc:LineExtensionAmount', l.netAmount, cur),
    period(l.periodStart, l.periodEnd),
    l.allowance && node('cac:AllowanceCharge', [
      leaf('cbc:ChargeIndicator', 'false'), leaf('cbc:AllowanceChargeReasonCode', '95'), leaf('cbc:AllowanceChargeReason', 'Discount'), leaf('cbc:Amount', l.allowance, cur),
    ]),
    node('cac:Item', [leaf('cbc:Description', l.description), leaf('cbc:Name', l.name), category('cac:ClassifiedTaxCategory', { category: l.category, rate: l.rate })]),
    node('cac:Price', [leaf('cbc:PriceAmount', l.netPrice, cur), leaf('cbc:BaseQuantity', l.baseQuantity, { unitCode: l.unitCode })]),
  ]));
  const body = [
    leaf('cbc:CustomizationID', EN16931_SPECIFICATION),
    leaf('cbc:ID', e.number),
    leaf('cbc:IssueDate', e.issueDate),
    !credit && leaf('cbc:DueDate', e.dueDate),
    leaf(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', e.typeCode),
    // UBL notes have no subject code: EN 16931 writes it first, between hashes (#PMT#…).
    ...e.notes.map((n) => leaf('cbc:Note', n.subject ? `#${n.subject}#${n.text}` : n.text)),
    leaf('cbc:DocumentCurrencyCode', e.currency),
    leaf('cbc:BuyerReference', e.buyerReference),
    e.period && period(e.period.start, e.period.end),
    e.purchaseOrder && node('cac:OrderReference', [leaf('cbc:ID', e.purchaseOrder)]),
    e.preceding && node('cac:BillingReference', [node('cac:InvoiceDocumentReference', [leaf('cbc:ID', e.preceding.number), leaf('cbc:IssueDate', e.preceding.issueDate)])]),
    party('cac:AccountingSupplierParty', e.seller),
    party('cac:AccountingCustomerParty', e.buyer),
    e.payment && node('cac:PaymentMeans', [
      leaf('cbc:PaymentMeansCode', '58'),
      node('cac:PayeeFinancialAccount', [
        leaf('cbc:ID', e.payment.iban), leaf('cbc:Name', e.payment.accountName),
        e.payment.bic && node('cac:FinancialInstitutionBranch', [leaf('cbc:ID', e.payment.bic)]),
      ]),
    ]),
    e.paymentTerms && node('cac:PaymentTerms', [leaf('cbc:Note', e.paymentTerms)]),
    node('cac:TaxTotal', [
      leaf('cbc:TaxAmount', e.totals.tax, cur),
      ...e.vat.map((v) => node('cac:TaxSubtotal', [leaf('cbc:TaxableAmount', v.base, cur), leaf('cbc:TaxAmount', v.tax, cur), category('cac:TaxCategory', v)])),
    ]),
    node('cac:LegalMonetaryTotal', [
      leaf('cbc:LineExtensionAmount', e.totals.lineTotal, cur),
      leaf('cbc:TaxExclusiveAmount', e.totals.taxExclusive, cur),
      leaf('cbc:TaxInclusiveAmount', e.totals.taxInclusive, cur),
      leaf('cbc:PrepaidAmount', e.totals.prepaid, cur),
      leaf('cbc:PayableAmount', e.totals.due, cur),
    ]),
    ...lines,
  ];
  return XML_DECLARATION + node(root, body, { xmlns: `urn:oasis:names:specification:ubl:schema:xsd:${root}-2`, 'xmlns:cac': CAC, 'xmlns:cbc': CBC });
}
