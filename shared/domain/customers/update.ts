import { rearmCollection } from '../collection/rearm';
import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { putIfUnchanged, retryOnRace, versionCondition } from '../../db/items';
import { Conflict } from '../../errors';
import { assertCurrencyChangeAllowed } from './currency-lock';
import { customerListFields, toCustomer, type Customer } from './customer';
import { applyCustomerInput, type CustomerInput } from './input';
import { findCustomerItem } from './read';
import { writeWithChecks } from './references';
import { withExternalIdIndex } from './external-id';
import { entityRules, paymentMethodRules, referenceChecks } from './rules';

export const customerDeleted = (id: string) => new Conflict(`Customer '${id}' is deleted and can no longer be changed.`, 'resource_deleted');

/** Partial update (decisions.md): omitted members kept, `null` clears, written only if unchanged since read. */
export async function updateCustomer(ctx: Ctx, id: string, input: CustomerInput): Promise<Customer> {
  let newDefault = false;
  const updated = await retryOnRace(async () => {
    const current = await findCustomerItem(ctx, id);
    if (current.deleted_at) throw customerDeleted(id);
    const next = withExternalIdIndex(ctx, applyCustomerInput(current, input, ctx.clock.now().toISOString()));
    assertCurrencyChangeAllowed(current, next.currency);
    await Promise.all([entityRules(ctx, current, next, input), paymentMethodRules(ctx, current, next)]);
    next.lf = customerListFields(next);
    newDefault = !!next.current_payment_method_id && next.current_payment_method_id !== current.current_payment_method_id;
    const checks = referenceChecks(ctx, current, next);
    if (checks.length === 0) return toCustomer(await putIfUnchanged(next, current._version));
    const written = { ...next, _version: current._version + 1 };
    await writeWithChecks([{ Put: { TableName: tableName(), Item: written, ...versionCondition(current._version) } }], checks);
    return toCustomer(written);
  });
  // A new default payment method re-arms the automatic collection of its unpaid invoices (docs/collection.md).
  if (newDefault) await rearmCollection(ctx, id);
  return updated;
}
