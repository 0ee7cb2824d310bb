import type { Ctx } from '../../context';
import { DomainError } from '../../errors';
import type { ValidateFunction } from '../../http/route-meta';
import { toFieldErrors } from '../../http/validation-errors';

export interface BatchFailure {
  index: number;
  error: { code: string; message: string };
}

/**
 * Hyperline's `POST …/batch`: each item checked by the single create's own validator and created by its own domain
 * function, one after the other in the array's order. One refused item (a 4xx of its own) rejects only itself, as
 * Hyperline's event batch does; an unexpected error stops the request (5xx: the items before it stay created, and a
 * retry with the same `Idempotency-Key` replays the answer once one was given).
 */
export async function createEach<T>(ctx: Ctx, items: unknown[], validate: ValidateFunction, create: (ctx: Ctx, input: never) => Promise<T>): Promise<{ created: T[]; failed: BatchFailure[] }> {
  const created: T[] = [];
  const failed: BatchFailure[] = [];
  for (const [index, item] of items.entries()) {
    if (!validate(item)) {
      const first = toFieldErrors('body', validate.errors ?? [])[0];
      const where = first ? `${first.path.replace(/^body/, `[${index}]`)} ${first.message}` : `[${index}] is not valid`;
      failed.push({ index, error: { code: 'invalid_request', message: `Item ${where}.` } });
      continue;
    }
    try {
      created.push(await create(ctx, item as never));
    } catch (error) {
      if (!(error instanceof DomainError) || error.status >= 500) throw error;
      failed.push({ index, error: { code: error.code, message: error.message } });
    }
  }
  return { created, failed };
}
