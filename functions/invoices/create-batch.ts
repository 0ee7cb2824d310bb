import { createEach } from '../../shared/domain/hyperline/batch-create';
import { createHyperlineInvoice } from '../../shared/domain/hyperline/invoice-request';
import { httpHandler } from '../../shared/http/handler';
import { route as single } from '../../shared/schemas/generated/createInvoice.js';
import { route } from '../../shared/schemas/generated/createInvoiceBatch.js';

/** Each invoice is checked and created as `POST /v1/invoices` does it, Hyperline's import members included (docs/hyperline.md). */
export const handler = httpHandler<unknown[]>(route, async ({ ctx, body }) => {
  const { created, failed } = await createEach(ctx, body, single.validate.body!, createHyperlineInvoice);
  return { invoices_created: created, invoices_failed: failed };
});
