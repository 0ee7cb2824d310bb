import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { dueIndexKeys, entityKey, listIndexKeys, listPartition } from '../../db/keys';
import type { TransactItem } from '../../db/transactions';

/**
 * The reconciliation of a pending charge (docs/payments.md, "Reconciliation"): while an invoice's charge is pending
 * at the provider, an item of its own (`WS#<ws>#PCHK#<invoice>` / `PCHK`) sits in the scheduling index (gsi4), due
 * an hour after the charge went pending, then daily, and in the workspace's list of pending checks (gsi1
 * `WS#<ws>#LIST#PCHK`, sorted by that due time). It is written and deleted in the same transactions as the invoice's
 * pending charge, so the scheduled run finds it in the scheduling index and the sync finds the workspace's with a
 * Query of that list, never a scan (the scheduling index spans workspaces). Apart from the invoice item because the
 * collection holds the invoice's place in the index.
 */
export const PENDING_CHECK = 'pending_charge_check';
const PENDING_CHECK_TYPE = 'PCHK';

/** How long a pending charge is left to its webhooks before the provider is asked, then between two asks. */
export const FIRST_CHECK_MS = 60 * 60 * 1000;
export const NEXT_CHECK_MS = 24 * 60 * 60 * 1000;

export const pendingCheckKey = (ctx: Ctx, invoiceId: string) => entityKey(ctx, PENDING_CHECK_TYPE, invoiceId);
/** The workspace's pending checks by due time (gsi1): `<due at>#<invoice>`. */
export const pendingCheckList = (ctx: Ctx): string => listPartition(ctx, PENDING_CHECK_TYPE);
export const pendingCheckListKeys = (ctx: Ctx, dueAt: string, invoiceId: string) => listIndexKeys(ctx, PENDING_CHECK_TYPE, dueAt, invoiceId);

export function pendingCheckPut(ctx: Ctx, invoiceId: string, afterMs = FIRST_CHECK_MS): TransactItem {
  const dueAt = new Date(ctx.clock.now().getTime() + afterMs).toISOString();
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...pendingCheckKey(ctx, invoiceId), ...dueIndexKeys(ctx, dueAt, PENDING_CHECK, invoiceId), ...pendingCheckListKeys(ctx, dueAt, invoiceId),
        _type: 'pending_charge_check', invoice_id: invoiceId,
      },
    },
  };
}

export const pendingCheckDelete = (ctx: Ctx, invoiceId: string): TransactItem => ({ Delete: { TableName: tableName(), Key: pendingCheckKey(ctx, invoiceId) } });
