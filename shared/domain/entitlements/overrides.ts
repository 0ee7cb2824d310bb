import type { Ctx } from '../../context';
import { InvalidRequest } from '../../errors';
import { findCustomerItem } from '../customers/read';
import { toEntitlements } from './entitlement';
import { expectedValue, valueFits, type FeatureValue } from './feature';
import { findFeatureItem } from './features';
import { materialiseEntitlements } from './materialise';

/**
 * `PUT /v1/customers/{id}/entitlements/{featureId}` (a value) and `DELETE` (null): the customer's override of one
 * feature, written with its recomputed entitlements in one conditioned write, so the answer and the next GET agree.
 * 404 for a customer or feature that is not the workspace's; 400 for a value that does not fit the feature's type.
 */
export async function setOverride(ctx: Ctx, customerId: string, featureId: string, value: FeatureValue | null) {
  const customer = await findCustomerItem(ctx, customerId);
  const feature = await findFeatureItem(ctx, featureId);
  if (value !== null && !valueFits(feature.type, value)) {
    const expected = expectedValue(feature.type);
    throw new InvalidRequest(`Feature '${feature.id}' is a ${feature.type} feature: value must be ${expected}.`, [{ path: 'body.value', message: `must be ${expected}` }]);
  }
  const item = await materialiseEntitlements(ctx, customer.id, (current) => {
    const { [feature.id]: _, ...rest } = current;
    return value === null ? rest : { ...rest, [feature.id]: value };
  });
  return toEntitlements(customer.id, item);
}
