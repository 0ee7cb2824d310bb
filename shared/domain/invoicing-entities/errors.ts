import { Conflict, NotFound, RuleViolation } from '../../errors';

export const entityNotFound = (id: string) => new NotFound('invoicing entity', id);

export const entityDeleted = (id: string) =>
  new Conflict(`Invoicing entity '${id}' is deleted and can no longer be changed.`, 'resource_deleted');

export const defaultRequired = () =>
  new RuleViolation(
    'default_invoicing_entity_required',
    'The default invoicing entity cannot be deleted or unset; make another entity the default first.',
  );
