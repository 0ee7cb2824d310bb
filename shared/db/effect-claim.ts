import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { Conflict, DomainError } from '../errors';
import { tableName } from './client';
import type { Key } from './keys';

/**
 * The idempotency claim of the running request (docs/idempotency.md), seen by the write path: while a request that
 * carries an `Idempotency-Key` runs, every transaction it commits also marks the key's record `committed` (and names
 * what it created), conditioned on the request still holding the claim. So "committed but not acknowledged" is
 * written down with the effect itself, a retry replays instead of applying it again, and a retry that took over a
 * stale claim can never be joined by the slow original's effect.
 */
export interface EffectClaim extends Key {
  readonly request_id: string;
  /** Transactions this request has committed so far (each one advances the record's `effect_count`). */
  committed: number;
}

/** An item the request's transactions created (a Put conditioned on `attribute_not_exists`): what a replay reads. */
export interface CreatedRef extends Key {
  type: string;
}

const scope = new AsyncLocalStorage<EffectClaim>();

/** Runs `work` with `claim` visible to every transaction it writes. */
export const withEffectClaim = <T>(claim: EffectClaim | undefined, work: () => T): T => (claim ? scope.run(claim, work) : work());

/**
 * Runs `work` with no claim: for writes that prepare an effect but are not it (a charge's lock on its invoice), so
 * a crash after them leaves the key free for a retry that redoes them.
 */
export const outsideEffect = <T>(work: () => T): T => scope.exit(work);

export const currentEffectClaim = (): EffectClaim | undefined => scope.getStore();

/**
 * A key that names this request's effect outside the table (a payment provider's idempotency key): the same for
 * the original and any retry with the same `Idempotency-Key`, so the provider never acts twice.
 */
export const effectKey = (): string | undefined => {
  const claim = currentEffectClaim();
  return claim && `idem_${createHash('sha256').update(claim.pk).digest('hex').slice(0, 32)}`;
};

type TransactItemLike = { Put?: { Item?: Record<string, unknown>; ConditionExpression?: string } };

const createdBy = (items: readonly TransactItemLike[]): CreatedRef[] =>
  items.flatMap(({ Put }) =>
    Put?.Item && Put.ConditionExpression === 'attribute_not_exists(pk)' && typeof Put.Item._type === 'string'
      ? [{ pk: String(Put.Item.pk), sk: String(Put.Item.sk), type: Put.Item._type }]
      : [],
  );

/**
 * The transaction item that records one more committed transaction of the request on its idempotency record. Its
 * condition: the record is still this request's claim, and no transaction of it committed unseen (an earlier try
 * whose answer was lost), so a retry inside the request cannot apply the effect a second time.
 */
export function effectMark(claim: EffectClaim, items: readonly TransactItemLike[]) {
  return {
    Update: {
      TableName: tableName(),
      Key: { pk: claim.pk, sk: claim.sk },
      UpdateExpression: 'SET #status = :committed, effect_count = :next, created = list_append(if_not_exists(created, :none), :created)',
      ConditionExpression:
        claim.committed === 0 ? 'request_id = :mine AND #status = :in_progress' : 'request_id = :mine AND effect_count = :seen',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':committed': 'committed',
        ':next': claim.committed + 1,
        ':none': [],
        ':created': createdBy(items),
        ':mine': claim.request_id,
        ...(claim.committed === 0 ? { ':in_progress': 'in_progress' } : { ':seen': claim.committed }),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/** 503, never retried inside the request (unlike ServiceUnavailable): trying again would apply the effect twice. */
export class AnswerLost extends DomainError {
  readonly status = 503;
  constructor() {
    super('service_unavailable', 'This request was applied but its answer was lost; retry it with the same Idempotency-Key to get it.');
  }
}

/**
 * The effect mark's condition failed: either a retry took the claim over (this slow original applies nothing: 409),
 * or this request's own earlier try committed and its answer was lost (nothing more is applied; a retry with the
 * same key replays it: 503).
 */
export function markFailed(claim: EffectClaim, record: Record<string, unknown> | undefined): Error {
  if (record?.request_id === claim.request_id) {
    return new AnswerLost();
  }
  return new Conflict('A retry with this Idempotency-Key took the request over; its answer is the one that counts.', 'idempotency_key_in_progress');
}
