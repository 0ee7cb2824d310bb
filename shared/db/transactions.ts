import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { RuleViolation, ServiceUnavailable } from '../errors';
import { db, tableName } from './client';
import { currentEffectClaim, effectMark, markFailed } from './effect-claim';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A condition of the transaction failed: `index` says which item, so the caller can say why. */
export class ConditionFailed extends Error {
  constructor(
    readonly index: number,
    readonly item?: Record<string, unknown>,
  ) {
    super(`Condition of transaction item ${index} failed`);
  }
}

/**
 * 422: the write would make an item larger than DynamoDB's 400 KB. Request bounds keep single members small (texts,
 * metadata), but their sum — say 500 long line items — can still pass it; the write is refused whole.
 */
export class ItemTooLarge extends RuleViolation {
  constructor() {
    super('item_too_large', 'The resource would exceed the 400 KB a stored record may hold; shorten its texts, metadata or line items.');
  }
}

const ITEM_SIZE = /item size|maximum allowed size/i;

/** Errors that mean "try again": the request changed nothing and may be retried as is. */
const TRANSIENT = new Set([
  'TransactionConflictException',
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionInProgressException',
  'InternalServerError',
]);

/**
 * One all-or-nothing TransactWriteItems. A failed condition surfaces as ConditionFailed (with the item, when
 * the entry asked for ReturnValuesOnConditionCheckFailure); a conflict or throttle as a retryable 503.
 * Inside a request with an `Idempotency-Key` the transaction also marks the key's record committed
 * (shared/db/effect-claim.ts); when that mark's condition fails the effect is not applied (409 or 503, see markFailed).
 */
export async function transactWrite(items: TransactItem[], clientRequestToken?: string): Promise<void> {
  const claim = currentEffectClaim();
  try {
    await db.send(new TransactWriteCommand({ TransactItems: claim ? [...items, effectMark(claim, items)] : items, ClientRequestToken: clientRequestToken }));
  } catch (error) {
    const failure = translateWriteError(error);
    if (claim && failure instanceof ConditionFailed && failure.index === items.length) throw markFailed(claim, failure.item);
    throw failure;
  }
  if (claim) claim.committed += 1;
}

export function translateWriteError(error: unknown): unknown {
  if (error instanceof TransactionCanceledException) {
    const reasons = error.CancellationReasons ?? [];
    if (reasons.some((r) => r.Code === 'ValidationError' && ITEM_SIZE.test(r.Message ?? ''))) return new ItemTooLarge();
    const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
    if (failed >= 0) {
      const item = reasons[failed]?.Item;
      return new ConditionFailed(failed, item && unmarshall(item));
    }
    return new ServiceUnavailable();
  }
  if (error instanceof Error && error.name === 'ConditionalCheckFailedException') {
    const item = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
    return new ConditionFailed(0, item && unmarshall(item));
  }
  if (error instanceof Error && error.name === 'ValidationException' && ITEM_SIZE.test(error.message)) return new ItemTooLarge();
  if (error instanceof Error && TRANSIENT.has(error.name)) return new ServiceUnavailable();
  return error;
}

/**
 * Runs a conditional write whose failed condition means "already done" (written by an earlier try or another
 * worker). Returns whether this call wrote; any other failure is thrown.
 */
export async function writeUnlessDone(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (translateWriteError(error) instanceof ConditionFailed) return false;
    throw error;
  }
}

/** A conditional update of one item of the table: true when it was written, false when its condition failed. */
export const updateUnlessDone = (input: Omit<UpdateCommandInput, 'TableName'>): Promise<boolean> =>
  writeUnlessDone(db.send(new UpdateCommand({ TableName: tableName(), ...input })));
