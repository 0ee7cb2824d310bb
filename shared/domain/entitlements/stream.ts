import { makeCtx } from '../../context';
import { workspaceOf } from '../../db/keys';
import { materialiseEntitlements } from './materialise';

type Image = Record<string, unknown>;

/** What of a subscription its customer's entitlements depend on: whether it grants (status) and what (plan version). */
const grantShape = (s: Image | undefined) => (s ? [s.customer_id, s.status, s.plan_version_id ?? null] : null);

/**
 * The stream's step that keeps entitlements materialised (docs/entitlements.md): a subscription change that moves its
 * status or plan version recomputes its customer's item. Idempotent (materialise.ts writes only a real change), so a
 * redelivered record or a retried batch changes nothing more. Overrides are written with their result at once.
 */
export async function deriveEntitlements(before: Image | undefined, after: Image | undefined, changeId: string): Promise<void> {
  const image = after ?? before;
  if (image?._type !== 'subscription' || JSON.stringify(grantShape(before)) === JSON.stringify(grantShape(after))) return;
  const workspaceId = workspaceOf(image.pk);
  if (!workspaceId || typeof image.customer_id !== 'string') return;
  await materialiseEntitlements(makeCtx(workspaceId, changeId), image.customer_id);
}
