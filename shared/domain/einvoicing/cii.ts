/**
 * UN/CEFACT Cross Industry Invoice D16B, EN 16931 profile (the XML inside a Factur-X / ZUGFeRD PDF), from the
 * model. Elements follow the order of the D16B schema.
 */
import type { EInvoice, EParty, EPostalAddress, EVatBreakdown } from './model';
import { EN16931_SPECIFICATION } from './model';
import { leaf, node, XML_DECLARATION } from './xml';

const NS = {
  'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/** YYYY-MM-DD → a date of format 102 (YYYYMMDD). */
const date = (name: string, day: string, type = 'udt') => node(name, [leaf(`${type}:DateTimeString`, day.replace(/-/g, ''), { format: '102' })]);

const address = (a: EPostalAddress) => node('ram:PostalTradeAddress', [
  leaf('ram:PostcodeCode', a.zip), leaf('ram:LineOne', a.line1), leaf('ram:LineTwo', a.line2), leaf('ram:CityName', a.city),
  leaf('ram:CountryID', a.country), leaf('ram:CountrySubDivisionName', a.state),
]);

const party = (name: string, p: EParty) => node(name, [
  leaf('ram:Name', p.name),
  leaf('ram:Description', p.legalInfo),
  node('ram:SpecifiedLegalOrganization', [
    p.legalId && leaf('ram:ID', p.legalId.value, { schemeID: p.legalId.scheme ?? undefined }),
    leaf('ram:TradingBusinessName', p.tradeName),
  ]),
  address(p.address),
  p.email && node('ram:URIUniversalCommunication', [leaf('ram:URIID', p.email, { schemeID: 'EM' })]),
  p.vatId && node('ram:SpecifiedTaxRegistration', [leaf('ram:ID', p.vatId, { schemeID: 'VA' })]),
  p.taxRegistrationId && node('ram:SpecifiedTaxRegistration', [leaf('ram:ID', p.taxRegistrationId, { schemeID: 'FC' })]),
]);

const tax = (v: Pick<EVatBreakdown, 'category' | 'rate'> & Partial<EVatBreakdown>) => node('ram:ApplicableTradeTax', [
  leaf('ram:CalculatedAmount', v.tax),
  leaf('ram:TypeCode', 'VAT'),
  leaf('ram:ExemptionReason', v.exemptionReason),
  leaf('ram:BasisAmount', v.base),
  leaf('ram:CategoryCode', v.category),
  leaf('ram:ExemptionReasonCode', v.exemptionCode),
  leaf('ram:RateApplicablePercent', v.rate),
]);

const period = (start: string | null, end: string | null) =>
  start || end ? node('ram:BillingSpecifiedPeriod', [start && date('ram:StartDateTime', start), end && date('ram:EndDateTime', end)]) : '';

export function toCii(e: EInvoice): string {
  const lines = e.lines.map((l) => node('ram:IncludedSupplyChainTradeLineItem', [
    node('ram:AssociatedDocumentLineDocument', [leaf('ram:LineID', l.id)]),
    node('ram:SpecifiedTradeProduct', [leaf('ram:Name', l.name), leaf('ram:Description', l.description)]),
    node('ram:SpecifiedLineTradeAgreement', [
      node('ram:NetPriceProductTradePrice', [leaf('ram:ChargeAmount', l.netPrice), leaf('ram:BasisQuantity', l.baseQuantity, { unitCode: l.unitCode })]),
    ]),
    node('ram:SpecifiedLineTradeDelivery', [leaf('ram:BilledQuantity', l.quantity, { unitCode: l.unitCode })]),
    node('ram:SpecifiedLineTradeSettlement', [
      tax({ category: l.category, rate: l.rate }),
      period(l.periodStart, l.periodEnd),
      l.allowance && node('ram:SpecifiedTradeAllowanceCharge', [
        node('ram:ChargeIndicator', [leaf('udt:Indicator', 'false')]),
        leaf('ram:ActualAmount', l.allowance), leaf('ram:ReasonCode', '95'), leaf('ram:Reason', 'Discount'),
      ]),
      node('ram:SpecifiedTradeSettlementLineMonetarySummation', [leaf('ram:LineTotalAmount', l.netAmount)]),
    ]),
  ]));
  const cur = { currencyID: e.currency };
  const document = node('rsm:ExchangedDocument', [
    leaf('ram:ID', e.number),
    leaf('ram:TypeCode', e.typeCode),
    date('ram:IssueDateTime', e.issueDate),
    ...e.notes.map((n) => node('ram:IncludedNote', [leaf('ram:Content', n.text), leaf('ram:SubjectCode', n.subject)])),
  ]);
  const agreement = node('ram:ApplicableHeaderTradeAgreement', [
    leaf('ram:BuyerReference', e.buyerReference),
    party('ram:SellerTradeParty', e.seller),
    party('ram:BuyerTradeParty', e.buyer),
    e.purchaseOrder && node('ram:BuyerOrderReferencedDocument', [leaf('ram:IssuerAssignedID', e.purchaseOrder)]),
  ], {}, true);
  const settlement = node('ram:ApplicableHeaderTradeSettlement', [
    leaf('ram:InvoiceCurrencyCode', e.currency),
    e.payment && node('ram:SpecifiedTradeSettlementPaymentMeans', [
      leaf('ram:TypeCode', '58'),
      node('ram:PayeePartyCreditorFinancialAccount', [leaf('ram:IBANID', e.payment.iban), leaf('ram:AccountName', e.payment.accountName)]),
      e.payment.bic && node('ram:PayeeSpecifiedCreditorFinancialInstitution', [leaf('ram:BICID', e.payment.bic)]),
    ]),
    ...e.vat.map(tax),
    e.period && period(e.period.start, e.period.end),
    (e.paymentTerms || e.dueDate) && node('ram:SpecifiedTradePaymentTerms', [leaf('ram:Description', e.paymentTerms), e.dueDate && date('ram:DueDateDateTime', e.dueDate)]),
    node('ram:SpecifiedTradeSettlementHeaderMonetarySummation', [
      leaf('ram:LineTotalAmount', e.totals.lineTotal),
      leaf('ram:TaxBasisTotalAmount', e.totals.taxExclusive),
      leaf('ram:TaxTotalAmount', e.totals.tax, cur),
      leaf('ram:GrandTotalAmount', e.totals.taxInclusive),
      leaf('ram:TotalPrepaidAmount', e.totals.prepaid),
      leaf('ram:DuePayableAmount', e.totals.due),
    ]),
    e.preceding && node('ram:InvoiceReferencedDocument', [
      leaf('ram:IssuerAssignedID', e.preceding.number),
      e.preceding.issueDate && date('ram:FormattedIssueDateTime', e.preceding.issueDate, 'qdt'),
    ]),
  ]);
  return XML_DECLARATION + node('rsm:CrossIndustryInvoice', [
    node('rsm:ExchangedDocumentContext', [node('ram:GuidelineSpecifiedDocumentContextParameter', [leaf('ram:ID', EN16931_SPECIFICATION)])]),
    document,
    node('rsm:SupplyChainTradeTransaction', [...lines, agreement, node('ram:ApplicableHeaderTradeDelivery', [], {}, true), settlement]),
  ], NS);
}
