import { createCustomer } from '../../shared/domain/customers/create';
import { createEach } from '../../shared/domain/hyperline/batch-create';
import { httpHandler } from '../../shared/http/handler';
import { route as single } from '../../shared/schemas/generated/createCustomer.js';
import { route } from '../../shared/schemas/generated/createCustomerBatch.js';

/** Each customer is checked and created as `POST /v1/customers` does it (docs/hyperline.md). */
export const handler = httpHandler<unknown[]>(route, async ({ ctx, body }) => {
  const { created, failed } = await createEach(ctx, body, single.validate.body!, createCustomer);
  return { customers_created: created, customers_failed: failed };
});
