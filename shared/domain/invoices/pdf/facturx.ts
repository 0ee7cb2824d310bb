/**
 * Factur-X (ZUGFeRD 2, profile EN 16931): the invoice PDF as PDF/A-3b (pdfkit's `subset`: the pdfaid XMP entries and
 * an sRGB output intent with its ICC profile), with the CII embedded as `factur-x.xml` (AFRelationship Data, listed
 * in the catalogue's AF array) and the Factur-X XMP extension schema that names it (Factur-X 1.0.7, §6.2.2).
 * The text fonts are embedded (./fonts.ts).
 */
import type { PdfDocument } from './pdfkit';

export const FACTURX_FILENAME = 'factur-x.xml';
const FACTURX_NS = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

export function facturXOptions(): Partial<PDFKit.PDFDocumentOptions> {
  return { subset: 'PDF/A-3b', pdfVersion: '1.7' } as Partial<PDFKit.PDFDocumentOptions>;
}

/** Non-ASCII as character references: XMP is XML, and pdfkit measures the metadata stream in characters. */
const xmp = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/[^\x20-\x7E]/g, (c) => `&#${c.codePointAt(0)};`);

/** The XMP extension schema that PDF/A wants for the fx: properties, then the properties themselves. */
const extensionSchema = `
<rdf:Description xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#" rdf:about="">
  <pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
    <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
    <pdfaSchema:namespaceURI>${FACTURX_NS}</pdfaSchema:namespaceURI>
    <pdfaSchema:prefix>fx</pdfaSchema:prefix>
    <pdfaSchema:property><rdf:Seq>
      ${[
        ['DocumentFileName', 'name of the embedded XML invoice file'],
        ['DocumentType', 'INVOICE'],
        ['Version', 'The actual version of the Factur-X XML schema'],
        ['ConformanceLevel', 'The conformance level of the embedded Factur-X data'],
      ].map(([name, description]) => `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>${description}</pdfaProperty:description></rdf:li>`).join('\n      ')}
    </rdf:Seq></pdfaSchema:property>
  </rdf:li></rdf:Bag></pdfaExtension:schemas>
</rdf:Description>
<rdf:Description xmlns:fx="${FACTURX_NS}" rdf:about="">
  <fx:DocumentType>INVOICE</fx:DocumentType>
  <fx:DocumentFileName>${FACTURX_FILENAME}</fx:DocumentFileName>
  <fx:Version>1.0</fx:Version>
  <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
</rdf:Description>`;

/** Embeds the CII and writes the XMP (title and author escaped: pdfkit would write them raw). */
export function attachFacturX(doc: PdfDocument, xml: string, meta: { title: string; author: string; created: Date }): void {
  doc.file(Buffer.from(xml, 'utf8'), {
    name: FACTURX_FILENAME, type: 'text/xml', relationship: 'Data', description: 'Factur-X invoice (EN 16931)',
    creationDate: meta.created, modifiedDate: meta.created,
  } as unknown as Parameters<PdfDocument['file']>[1]);
  const pdf = doc as PdfDocument & { appendXML(xml: string): void; _addInfo(): void; info: Record<string, unknown> };
  pdf.appendXML(extensionSchema);
  pdf._addInfo = () => {
    pdf.appendXML(`
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
  <xmp:CreateDate>${meta.created.toISOString().split('.')[0]}Z</xmp:CreateDate>
  <xmp:CreatorTool>${xmp(String(pdf.info.Creator))}</xmp:CreatorTool>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xmp(meta.title)}</rdf:li></rdf:Alt></dc:title>
  <dc:creator><rdf:Seq><rdf:li>${xmp(meta.author)}</rdf:li></rdf:Seq></dc:creator>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
  <pdf:Producer>${xmp(String(pdf.info.Producer))}</pdf:Producer>
</rdf:Description>`);
  };
}
