import { arrayOf, object, out, requireAll, resource, type Schema } from './common';

/** Hyperline's batch creations (customers, invoices): this many items a request keeps one Lambda's run short. */
export const MAX_BATCH_ITEMS = 100;

/** The body: 1 to MAX_BATCH_ITEMS items, each checked on its own by the single create's schema (one bad item rejects only itself). */
export const batchBody: Schema = { type: 'array', minItems: 1, maxItems: MAX_BATCH_ITEMS, items: {} };

const failure: Schema = requireAll({
  type: 'object',
  properties: {
    index: { ...out.integer, description: 'Position of the item in the batch.' },
    error: object({ code: out.string, message: out.string }, ['code', 'message']),
  },
});

/** `<plural>_created`: the created resources in the batch's order; `<plural>_failed`: each refused item's position and reason. */
export const batchResource = (plural: string, item: Schema): Schema =>
  resource({ [`${plural}_created`]: arrayOf(item), [`${plural}_failed`]: arrayOf(failure) });
