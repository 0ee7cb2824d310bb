import type { Ctx } from '../../context';
import { languageFor, type Language } from '../../i18n/catalog';
import type { CustomerItem } from '../customers/customer';
import { findCustomerItem } from '../customers/read';
import { findEntityItem } from '../invoicing-entities/read';
import { readLogo } from '../invoicing-entities/logo';
import type { Logo } from '../invoices/pdf/logo';

/** Who reads a page: in which language (the customer's, else its entity's) and time zone (the customer's, else the entity's). */
export interface Audience {
  customer: CustomerItem;
  language: Language;
  timeZone: string;
  /** The invoicing entity's trade name, else its legal name. */
  sellerName: string;
  /** The stored copy of the entity's logo, heading its pages (shared/pages/html.ts `document`). */
  logo: Logo | null;
}

/** The logo as a page draws it: a data URL, the seller's name for its alt text. */
export const pageLogo = ({ logo, sellerName }: Audience): { src: string; alt: string } | null =>
  logo && { src: `data:${logo.contentType};base64,${Buffer.from(logo.body).toString('base64')}`, alt: sellerName };

export async function audienceOf(ctx: Ctx, customerId: string, entityId?: string): Promise<Audience> {
  const customer = await findCustomerItem(ctx, customerId);
  const entity = await findEntityItem(ctx, entityId || customer.invoicing_entity_id).catch(() => undefined);
  return {
    customer,
    language: languageFor(customer.language, entity?.language),
    timeZone: validTimeZone(customer.timezone) ?? validTimeZone(entity?.timezone) ?? 'UTC',
    sellerName: entity?.trade_name ?? entity?.name ?? '',
    logo: await readLogo(entity),
  };
}

function validTimeZone(zone: string | null | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}
