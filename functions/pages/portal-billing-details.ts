import { portalBillingDetails } from '../../shared/domain/pages/portal-actions';
import { route } from '../../shared/schemas/generated/portalBillingDetails.js';
import { portalFormHandler } from './portal-action';

const FIELDS = ['billing_email', 'line1', 'line2', 'zip', 'city', 'state', 'country', 'tax_id'] as const;

/** The billing details form of the portal: address, tax id (its format checked per country) and billing email. */
export const handler = portalFormHandler(route, {
  purpose: () => 'billing_details',
  run: (ctx, session, form, nonce) => portalBillingDetails(ctx, session, Object.fromEntries(FIELDS.map((f) => [f, form[f] ?? ''])) as Record<(typeof FIELDS)[number], string>, nonce),
  done: () => 'billing_updated',
  refused: (error) =>
    error.code === 'portal_action_not_allowed' ? 'not_allowed' : error.code === 'invalid_tax_id' ? 'tax_id_invalid' : error.code === 'invalid_billing_email' ? 'email_invalid' : 'action_refused',
});
