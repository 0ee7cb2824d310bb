import { tableName } from './client';
import type { Key } from './keys';
import { ConditionFailed, transactWrite, type TransactItem } from './transactions';

/**
 * A balance and its ledger move together, in one TransactWriteItems:
 * - the balance item is updated only if its `_version` is still the one read (or created only if absent), so two
 *   writers can never both start from the same balance;
 * - the ledger entry is inserted with `attribute_not_exists`, so it is written once, never overwritten.
 * Hence `balance_after` of consecutive entries always chains, and the balance always equals the sum of the ledger.
 */
export interface LedgerChange {
  balanceKey: Key;
  /** The `_version` read; `undefined` when the balance item does not exist yet (it is created). */
  readVersion: number | undefined;
  /** Attributes of the balance item to set (its new amount, and anything else that moves with it). */
  set: Record<string, unknown>;
  /** Attributes of the balance item to remove (e.g. its scheduling index keys once no work is due). */
  remove?: string[];
  entry: Key & Record<string, unknown>;
  /** Further items that must commit with the change (lot updates, idempotency markers, currency locks…). */
  also?: TransactItem[];
}

export class BalanceChanged extends Error {
  constructor() {
    super('The balance changed since it was read');
  }
}

export class EntryExists extends Error {
  constructor(readonly index: number) {
    super('A ledger entry or marker of this change already exists');
  }
}

export function ledgerItems(change: LedgerChange): TransactItem[] {
  const names: Record<string, string> = { '#v': '_version' };
  const values: Record<string, unknown> = { ':next': (change.readVersion ?? -1) + 1 };
  const assignments = Object.entries(change.set).map(([name, value], i) => {
    names[`#a${i}`] = name;
    values[`:a${i}`] = value;
    return `#a${i} = :a${i}`;
  });
  if (change.readVersion !== undefined) values[':read'] = change.readVersion;
  const removals = (change.remove ?? []).map((name, i) => {
    names[`#r${i}`] = name;
    return `#r${i}`;
  });
  return [
    {
      Update: {
        TableName: tableName(),
        Key: change.balanceKey,
        UpdateExpression: `SET ${[...assignments, '#v = :next'].join(', ')}${removals.length ? ` REMOVE ${removals.join(', ')}` : ''}`,
        ConditionExpression: change.readVersion === undefined ? 'attribute_not_exists(pk)' : '#v = :read',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    { Put: { TableName: tableName(), Item: change.entry, ConditionExpression: 'attribute_not_exists(pk)' } },
    ...(change.also ?? []),
  ];
}

/**
 * Writes the change. A lost race on the balance surfaces as BalanceChanged (read again and recompute: see
 * retryOnRace), an existing entry or marker (item 1, or one of `also`) as EntryExists with its index.
 */
export async function writeLedger(change: LedgerChange): Promise<void> {
  try {
    await transactWrite(ledgerItems(change));
  } catch (error) {
    if (error instanceof ConditionFailed) throw error.index === 0 ? new BalanceChanged() : new EntryExists(error.index);
    throw error;
  }
}
