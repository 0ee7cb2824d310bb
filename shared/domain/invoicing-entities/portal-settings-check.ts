import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { RuleViolation } from '../../errors';
import { priceConfigurationKey, type PriceConfigurationItem } from '../catalog/price-configuration';
import type { PortalSettings } from './portal-settings';

/**
 * The rules beyond the JSON Schema: a plan change needs at least one price configuration to switch to, and each one
 * must be an active price configuration of the workspace (another workspace's answers as a missing one). 422 otherwise.
 */
export async function assertPortalSettings(ctx: Ctx, settings: Partial<PortalSettings> | undefined): Promise<void> {
  if (!settings) return;
  const ids = settings.allowed_price_configuration_ids ?? [];
  if (settings.allow_plan_change && ids.length === 0) {
    throw new RuleViolation('portal_prices_required', 'portal_settings.allow_plan_change needs allowed_price_configuration_ids: the price configurations a customer may switch to.');
  }
  const found = await Promise.all(ids.map((id) => getItem<PriceConfigurationItem>(priceConfigurationKey(ctx, id))));
  const missing = ids.find((_, i) => found[i]?.status !== 'active');
  if (missing) throw new RuleViolation('price_not_found', `portal_settings.allowed_price_configuration_ids: no active price configuration '${missing}'.`);
}
