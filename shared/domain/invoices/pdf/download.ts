import type { Ctx } from '../../../context';
import { NotFound } from '../../../errors';
import { languageFor, type Language } from '../../../i18n/catalog';
import { binaryResponse, type BinaryResponse } from '../../../http/responses';
import { findCustomerItem } from '../../customers/read';
import type { CustomerItem } from '../../customers/customer';
import { findEntityItem } from '../../invoicing-entities/read';
import type { EntityItem } from '../../invoicing-entities/invoicing-entity';
import { readLogo } from '../../invoicing-entities/logo';
import type { Branding } from './branding';
import type { Invoice } from '../invoice';
import { getInvoice } from '../read';

export type DownloadFormat = 'pdf' | 'facturx' | 'ubl' | 'cii';

/** A party that is gone (entity, customer, credited invoice) leaves out what it would have added. */
export async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof NotFound) return null;
    throw error;
  }
}

/** Who a document of this seller and customer is printed for, in which language, with which colour and logo. */
export interface Readers {
  entity: EntityItem | null;
  customer: CustomerItem | null;
  branding: Branding;
  language: Language;
}

export async function readersOf(ctx: Ctx, { seller, customer_id }: { seller: { id: string }; customer_id: string }): Promise<Readers> {
  const [entity, customer] = await Promise.all([orNull(findEntityItem(ctx, seller.id)), orNull(findCustomerItem(ctx, customer_id))]);
  return {
    entity,
    customer,
    branding: { brandColor: entity?.brand_color ?? null, timezone: entity?.timezone, logo: await readLogo(entity) },
    // The PDF speaks the customer's language, else the entity's (as the hosted pages do).
    language: languageFor(customer?.language, entity?.language),
  };
}

/** Factur-X is the default of issued invoices and credit notes whose entity enables it; everything else is a plain PDF. */
const defaultFormat = (invoice: Invoice, entity: EntityItem | null): DownloadFormat =>
  entity?.facturx_enabled && invoice.number && invoice.type !== 'document' ? 'facturx' : 'pdf';

/**
 * GET /v1/invoices/{id}/download: the invoice (credit note, document) as a PDF, a Factur-X PDF/A-3, or EN 16931
 * UBL / CII XML, named after its number (docs/invoice-pdf.md, docs/e-invoicing.md).
 */
export async function downloadInvoice(ctx: Ctx, id: string, format?: DownloadFormat): Promise<BinaryResponse> {
  const invoice = await getInvoice(ctx, id);
  const { entity, customer, branding, language } = await readersOf(ctx, invoice);
  const chosen = format ?? defaultFormat(invoice, entity);
  const name = invoice.number ?? invoice.id;
  if (chosen === 'pdf') {
    // Loaded on first use: pdfkit's start-up (font metrics, line-breaking tables) would otherwise double the cold
    // start of the function, and errors (a 404) never need it.
    const { renderInvoicePdf } = await import('./render');
    return binaryResponse(await renderInvoicePdf(invoice, branding, { entity, customer, language }), 'application/pdf', `${name}.pdf`);
  }
  const original = invoice.type === 'credit_note' && invoice.original_invoice_id ? await orNull(getInvoice(ctx, invoice.original_invoice_id)) : null;
  const { eInvoice } = await import('../../einvoicing/model');
  const model = eInvoice({ invoice, entity, customer, original });
  if (chosen === 'ubl') {
    const { toUbl } = await import('../../einvoicing/ubl');
    return binaryResponse(Buffer.from(toUbl(model)), 'application/xml', `${name}.ubl.xml`);
  }
  const { toCii } = await import('../../einvoicing/cii');
  const cii = toCii(model);
  if (chosen === 'cii') return binaryResponse(Buffer.from(cii), 'application/xml', `${name}.cii.xml`);
  const { renderInvoicePdf } = await import('./render');
  return binaryResponse(await renderInvoicePdf(invoice, branding, { entity, customer, language, facturx: { xml: cii } }), 'application/pdf', `${name}.pdf`);
}
