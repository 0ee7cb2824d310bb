import type { Ctx } from '../../context';
import { languageFor, type Language } from '../../i18n/catalog';
import type { CustomerItem } from '../customers/customer';
import { findCustomerItem } from '../customers/read';
import { findEntityItem } from '../invoicing-entities/read';

/** Who reads a page: in which language (the customer's, else its entity's) and time zone (the customer's, else the entity's). */
export interface Audience {
  customer: CustomerItem;
  language: Language;
  timeZone: string;
  /** The invoicing entity's trade name, else its legal name. */
  sellerName: string;
}

export async function audienceOf(ctx: Ctx, customerId: string, entityId?: string): Promise<Audience> {
  const customer = await findCustomerItem(ctx, customerId);
  const entity = await findEntityItem(ctx, entityId || customer.invoicing_entity_id).catch(() => undefined);
  return {
    customer,
    language: languageFor(customer.language, entity?.language),
    timeZone: validTimeZone(customer.timezone) ?? validTimeZone(entity?.timezone) ?? 'UTC',
    sellerName: entity?.trade_name ?? entity?.name ?? '',
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
