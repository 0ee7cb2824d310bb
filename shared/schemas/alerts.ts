import { arrayOf, enumOf, id, name, object, out, resource, type Schema } from './common';
import { MIN_MAGNITUDE } from './metadata';

export const alertCreationBody = object(
  {
    name,
    type: { ...enumOf(['usage', 'spend']), description: '`usage`: an aggregator\'s value; `spend`: the price of the metered usage, both over the customer\'s billing period.' },
    aggregator_id: { ...id, description: 'Required for `usage`, refused for `spend`.' },
    customer_id: { ...id, description: 'One customer; left out: every customer.' },
    thresholds: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'number', exclusiveMinimum: 0, maximum: 1e15, 'x-min-magnitude': MIN_MAGNITUDE } },
  },
  ['name', 'type', 'thresholds'],
);

export const alertResource: Schema = resource({
  id: out.string,
  object: enumOf(['alert']),
  name: out.string,
  type: enumOf(['usage', 'spend']),
  aggregator_id: out.nullableString,
  customer_id: out.nullableString,
  thresholds: arrayOf(out.number),
  created_at: out.dateTime,
});
