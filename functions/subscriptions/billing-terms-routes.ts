import type { RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { billingTermsBody, billingTermsResource } from '../../shared/schemas/billing-terms';

/** A subscription's thresholds, minimum and commits (docs/usage-billing.md, "Thresholds", "Commitments", "Prepaid commits"). */
export const billingTermsRoutes: RouteDefinition[] = [
  {
    id: 'getSubscriptionBillingTerms', method: 'GET', path: '/v2/subscriptions/{id}/billing-terms', handler: 'functions/subscriptions/get-billing-terms.ts', scope: 'read', tag: 'Subscriptions',
    summary: 'Get a subscription\'s billing thresholds, minimum and prepaid commit', request: { path: idPath }, response: { status: 200, schema: billingTermsResource },
  },
  {
    id: 'setSubscriptionBillingTerms', method: 'PATCH', path: '/v2/subscriptions/{id}/billing-terms', handler: 'functions/subscriptions/set-billing-terms.ts', scope: 'write', tag: 'Subscriptions',
    summary: 'Set a subscription\'s billing thresholds, minimum and prepaid commit',
    description: '`billing_thresholds`: metered usage is invoiced as soon as what it owes since its last invoice reaches `amount_gte` or `usage_gte`, then the period end bills the rest. `minimum_invoice_fee`: a period invoiced for less is billed the difference at its end. `prepaid_commit`: from the next billing date, `amount` is invoiced in advance each period and the period\'s usage is drawn from it, the rest billed as overage; the unused part expires (`rollover: true` is 422 `rollover_not_supported`; with `minimum_invoice_fee` 422 `commit_with_minimum_fee`). A member left out is unchanged; null removes it. 409 for a cancelled subscription.',
    request: { path: idPath, body: billingTermsBody }, response: { status: 200, schema: billingTermsResource },
  },
];
