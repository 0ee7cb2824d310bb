import { NotFound, RuleViolation } from '../../errors';

export const productNotFound = (id: string) => new NotFound('product', id);
export const priceConfigurationNotFound = (id: string) => new NotFound('price configuration', id);

/** decisions.md: archived products cannot be used in new quotes, subscriptions or invoices. */
export const productArchived = (id: string) =>
  new RuleViolation('product_archived', `Product '${id}' is archived: it cannot be used in new quotes, subscriptions, invoices or prices.`);

export const productMissing = (id: string) => new RuleViolation('product_not_found', `No product with id '${id}'.`);

/**
 * Plans do not exist in this service (docs/catalog.md): a `plan_id` names no plan of the workspace, so only null is
 * taken. Checked like every other reference, instead of storing an id no one can verify (another workspace's, say).
 */
export const planMissing = (id: string) =>
  new RuleViolation('plan_not_found', `No plan with id '${id}': this service has no plans yet, so plan_id takes null only.`);
