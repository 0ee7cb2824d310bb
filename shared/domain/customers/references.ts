import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { entityKey } from '../../db/keys';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transactions';
import { RuleViolation, type DomainError } from '../../errors';
import { entityItemKey } from '../invoicing-entities/invoicing-entity';
import { customerItemKey } from './customer';

/** A condition on another item, checked in the same transaction as the write that relies on it. */
export interface ReferenceCheck {
  item: TransactItem;
  error: () => DomainError;
}

const live = (key: { pk: string; sk: string }, extra = '', values: Record<string, unknown> = {}): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: key,
    ConditionExpression: `attribute_exists(pk) AND attribute_type(deleted_at, :null)${extra}`,
    ExpressionAttributeValues: { ':null': 'NULL', ...values },
  },
});

export const invoicingEntityExists = (ctx: Ctx, id: string): ReferenceCheck => ({
  item: live(entityItemKey(ctx, id)),
  error: () => new RuleViolation('invoicing_entity_not_found', `No invoicing entity with id '${id}' (or it is deleted).`),
});

export const organisationExists = (ctx: Ctx, id: string): ReferenceCheck => ({
  item: live(customerItemKey(ctx, id)),
  error: () => new RuleViolation('organisation_not_found', `No customer with id '${id}' to use as organisation.`),
});

/** Payment methods are stored as `PM` entities that name their customer (see docs/data-model.md). */
export const paymentMethodOfCustomer = (ctx: Ctx, customerId: string, id: string): ReferenceCheck => ({
  item: live(entityKey(ctx, 'PM', id), ' AND customer_id = :customer', { ':customer': customerId }),
  error: () => new RuleViolation('payment_method_not_found', `No saved payment method '${id}' for this customer.`),
});

/** Writes `items` and the checks in one transaction; a failed check becomes its own 422. */
export async function writeWithChecks(items: TransactItem[], checks: ReferenceCheck[]): Promise<void> {
  try {
    await transactWrite([...items, ...checks.map((c) => c.item)]);
  } catch (error) {
    if (error instanceof ConditionFailed && error.index >= items.length) throw checks[error.index - items.length]!.error();
    throw error;
  }
}
