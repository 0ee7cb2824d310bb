import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { collectionKey, collectionPartition } from '../../db/keys';
import { queryItems } from '../../db/query';
import { NotFound, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { getItem } from '../../db/items';
import { aggregatorKey, type AggregatorItem } from '../metering/aggregator';
import { customerItemKey } from '../customers/customer';

/**
 * Usage and spend alerts (docs/usage-billing.md, "Alerts"; Stripe's and Metronome's): a customer's usage of an
 * aggregator, or its spend on metered usage, over its billing period, watched against thresholds; each crossing emits
 * `alert.triggered` once per customer, threshold and period (alert-check.ts). Kept in one partition of the workspace.
 */
export interface Alert {
  id: string;
  object: 'alert';
  name: string;
  type: 'usage' | 'spend';
  /** `usage`: the aggregator whose value is watched. */
  aggregator_id: string | null;
  /** One customer, or null: every customer. */
  customer_id: string | null;
  /** Ascending: values (usage, in the aggregator's unit) or amounts (spend, minor units of the subscription's currency). */
  thresholds: number[];
  created_at: string;
}

export interface AlertInput {
  name: string;
  type: 'usage' | 'spend';
  aggregator_id?: string | null;
  customer_id?: string | null;
  thresholds: number[];
}

export const ALERTS = 'ALERTS';
const alertKey = (ctx: Ctx, id: string) => collectionKey(ctx, ALERTS, id);
const publicAlert = ({ id, name, type, aggregator_id, customer_id, thresholds, created_at }: Alert): Alert => ({ id, object: 'alert', name, type, aggregator_id, customer_id, thresholds, created_at });

export async function createAlert(ctx: Ctx, input: AlertInput): Promise<Alert> {
  const aggregatorId = input.aggregator_id ?? null;
  if (input.type === 'usage' && !aggregatorId) throw new RuleViolation('aggregator_required', 'A usage alert needs aggregator_id: the aggregator whose usage it watches.');
  if (input.type === 'spend' && aggregatorId) throw new RuleViolation('aggregator_not_allowed', 'A spend alert watches the customer\'s spend on all metered usage: leave aggregator_id out.');
  if (aggregatorId && !(await getItem<AggregatorItem>(aggregatorKey(ctx, aggregatorId), true))) throw new NotFound('aggregator', aggregatorId, 'aggregator_not_found');
  if (input.customer_id && !(await getItem(customerItemKey(ctx, input.customer_id), true))) throw new NotFound('customer', input.customer_id, 'customer_not_found');
  const alert: Alert = {
    id: newId('alr'), object: 'alert', name: input.name, type: input.type, aggregator_id: aggregatorId, customer_id: input.customer_id ?? null,
    thresholds: [...new Set(input.thresholds)].sort((a, b) => a - b), created_at: ctx.clock.now().toISOString(),
  };
  await db.send(new PutCommand({ TableName: tableName(), Item: { ...alertKey(ctx, alert.id), _type: 'alert_definition', ...alert }, ConditionExpression: 'attribute_not_exists(pk)' }));
  return alert;
}

/** Every alert of the workspace, oldest first (one Query of its partition): also what the usage stream reads. */
export async function listAlerts(ctx: Ctx) {
  const { items } = await queryItems<Alert>({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': collectionPartition(ctx, ALERTS) }, ConsistentRead: true });
  const data = items.map(publicAlert).sort((a, b) => a.id.localeCompare(b.id));
  return { meta: { total: data.length, taken: data.length, skipped: 0 }, data };
}

export async function getAlert(ctx: Ctx, id: string): Promise<Alert> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: alertKey(ctx, id), ConsistentRead: true }));
  if (!Item) throw new NotFound('alert', id);
  return publicAlert(Item as Alert);
}

export async function deleteAlert(ctx: Ctx, id: string): Promise<Alert> {
  const { Attributes } = await db.send(new DeleteCommand({ TableName: tableName(), Key: alertKey(ctx, id), ReturnValues: 'ALL_OLD' }));
  if (!Attributes) throw new NotFound('alert', id);
  return publicAlert(Attributes as Alert);
}
