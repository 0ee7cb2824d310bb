import { NotFound, RuleViolation } from '../../errors';

export const productNotFound = (id: string) => new NotFound('product', id);
export const priceConfigurationNotFound = (id: string) => new NotFound('price configuration', id);

/** decisions.md: archived products cannot be used in new quotes, subscriptions or invoices. */
export const productArchived = (id: string) =>
  new RuleViolation('product_archived', `Product '${id}' is archived: it cannot be used in new quotes, subscriptions, invoices or prices.`);

export const productMissing = (id: string) => new RuleViolation('product_not_found', `No product with id '${id}'.`);
