import { Conflict, NotFound, RuleViolation } from '../../errors';
import { MAX_AGGREGATORS } from './aggregator';

/** On the aggregator's own routes (the path names it): the plain 404 of every resource. */
export const aggregatorMissing = (id: string) => new NotFound('aggregator', id);

/** Where another route reads an aggregator by a parameter (usage reads): the 404 says which id was missing. */
export const aggregatorNotFound = (id: string) => new NotFound('aggregator', id, 'aggregator_not_found');

/** A body names an aggregator (a product's `aggregator_id`) that does not exist or is deleted. */
export const aggregatorReferenceMissing = (id: string) =>
  new RuleViolation('aggregator_not_found', `No aggregator with id '${id}' (or it is deleted).`);

export const aggregatorLimitReached = () =>
  new RuleViolation('aggregator_limit_reached', `A workspace has at most ${MAX_AGGREGATORS} aggregators (deleted ones do not count); delete one first.`);

export const definitionImmutable = (members: string[]) =>
  new RuleViolation(
    'aggregator_definition_immutable',
    `An aggregator's definition (event_type, operation, property, filters) cannot change, so that the usage it aggregated keeps its meaning; ` +
      `this request changes ${members.join(', ')}. Create a new aggregator (POST /v1/aggregators) and point the products' aggregator_id to it.`,
  );

export const aggregatorInUse = (id: string, productIds: string[]) =>
  new Conflict(
    `Aggregator '${id}' is used by ${productIds.length > 0 ? `product ${productIds.join(', ')}` : 'a product'}: ` +
      `give ${productIds.length > 1 ? 'those products' : 'the product'} another aggregator_id (or null), or delete ${productIds.length > 1 ? 'them' : 'it'}, first.`,
    'aggregator_in_use',
  );
