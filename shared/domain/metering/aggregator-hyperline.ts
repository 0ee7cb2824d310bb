import { InvalidRequest, RuleViolation } from '../../errors';
import { FILTER_OF_HYPERLINE, HYPERLINE_OPERATORS, hyperlineFields, type AggregatorFilter, type AggregatorLabels, type HyperlineOperator } from './aggregator';
import type { AggregatorCreateInput, AggregatorUpdateInput } from './aggregator-input';

/** Hyperline's members of an aggregator body (docs/hyperline.md), beside ours. */
export interface HyperlineAggregatorMembers extends AggregatorLabels {
  entity?: string;
  where?: { conditional?: 'and' | 'or'; fields?: { property: string; operator: string }[] } | null;
  type?: 'metered' | 'licensed';
  allow_negative_values?: boolean;
}

export type AggregatorCreateBody = Omit<AggregatorCreateInput, 'name' | 'event_type'> & { name?: string; event_type?: string } & HyperlineAggregatorMembers;
export type AggregatorUpdateBody = AggregatorUpdateInput & HyperlineAggregatorMembers;

const refused = (member: string, message: string) => new RuleViolation('hyperline_member_unsupported', `${member}: ${message}`);

/** Hyperline's `where` as our filters: only operators we have, and `or` only where it means `and` (one field). */
function filtersOfWhere(where: NonNullable<HyperlineAggregatorMembers['where']>): AggregatorFilter[] {
  const fields = where.fields ?? [];
  if (where.conditional === 'or' && fields.length > 1) {
    throw refused('where.conditional', "'or' is not supported here: an aggregator's filters must all hold (use 'and', or one aggregator per condition).");
  }
  return fields.map((field, i) => {
    if (!(HYPERLINE_OPERATORS as readonly string[]).includes(field.operator)) {
      throw refused(`where.fields.${i}.operator`, `'${field.operator}' has no filter here; supported: ${HYPERLINE_OPERATORS.join(', ')} (or our \`filters\`).`);
    }
    return { property: field.property, operator: FILTER_OF_HYPERLINE[field.operator as HyperlineOperator] };
  });
}

/** One value from our member or Hyperline's alias: both given must agree. */
function either<T>(ours: T | undefined, oursName: string, theirs: T | undefined, theirsName: string): T | undefined {
  if (ours !== undefined && theirs !== undefined && JSON.stringify(ours) !== JSON.stringify(theirs)) {
    throw refused(theirsName, `says otherwise than \`${oursName}\`; give one of them.`);
  }
  return ours ?? theirs;
}

/**
 * A body in either form as ours, with Hyperline's descriptive members kept. A member that would bill otherwise than
 * Hyperline means it (`type: licensed`, `allow_negative_values: true`, an operator or `or` we lack) is a 422.
 */
export function fromHyperlineBody(body: AggregatorUpdateBody): AggregatorUpdateInput & AggregatorLabels {
  const { entity, where, type, allow_negative_values, description, custom_event_name, exposed_event_keys, ...ours } = body;
  if (type === 'licensed') throw refused('type', "'licensed' is not supported: nothing here bills a licensed aggregator; use 'metered' (the default).");
  if (allow_negative_values === true) {
    throw refused('allow_negative_values', "true is not supported: a period's billed quantity is never below 0 here; use false (the default).");
  }
  const whereFilters = where ? filtersOfWhere(where) : undefined;
  // Both given (an aggregator PUT back as read): `where` must be the part of `filters` it can express.
  if (whereFilters && ours.filters) either(hyperlineFields(ours.filters), 'filters', hyperlineFields(whereFilters), 'where');
  const filters = ours.filters ?? whereFilters;
  return {
    ...ours,
    ...(filters !== undefined && { filters }),
    ...(either(ours.event_type, 'event_type', entity, 'entity') !== undefined && { event_type: ours.event_type ?? entity }),
    ...(description !== undefined && { description }),
    ...(custom_event_name !== undefined && { custom_event_name }),
    ...(exposed_event_keys !== undefined && { exposed_event_keys }),
  };
}

/** A create body as ours: `event_type` (or `entity`) required, `name` defaulting to the event type. */
export function fromHyperlineCreateBody(body: AggregatorCreateBody): AggregatorCreateInput & AggregatorLabels {
  const input = fromHyperlineBody(body);
  if (input.event_type === undefined) {
    const error = { path: 'body.event_type', message: "is required (or Hyperline's `entity`)" };
    throw new InvalidRequest(`Invalid body: ${error.path} ${error.message}.`, [error]);
  }
  return { ...input, name: input.name ?? input.event_type, event_type: input.event_type, operation: body.operation };
}
