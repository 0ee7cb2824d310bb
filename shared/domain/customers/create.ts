import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { counterUpdate } from '../../db/pagination';
import { RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { readDefaultEntityId } from '../invoicing-entities/default-entity';
import { CUSTOMER, customerListFields, newCustomerItem, toCustomer, type Customer } from './customer';
import { applyCustomerInput, type CustomerInput } from './input';
import { entityRules, referenceChecks } from './rules';
import { writeWithChecks } from './references';
import { withExternalIdIndex } from './external-id';

/** Creates a customer under the given invoicing entity, or the workspace's default one. */
export async function createCustomer(ctx: Ctx, input: CustomerInput & { name: string }): Promise<Customer> {
  const entityId = input.invoicing_entity_id ?? (await readDefaultEntityId(ctx));
  if (!entityId) {
    throw new RuleViolation('invoicing_entity_required', 'Create an invoicing entity first (POST /v1/invoicing-entities): every customer is billed by one.');
  }
  const now = ctx.clock.now().toISOString();
  const blank = newCustomerItem(ctx, newId('cus'), now);
  const item = applyCustomerInput(blank, { ...input, invoicing_entity_id: entityId }, now);
  await entityRules(ctx, blank, item, input);
  item.lf = customerListFields(item);
  Object.assign(item, withExternalIdIndex(ctx, item));
  await writeWithChecks(
    [{ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }, counterUpdate(ctx, CUSTOMER, 1)],
    referenceChecks(ctx, blank, item),
  );
  return toCustomer(item);
}
