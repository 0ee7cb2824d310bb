import type { StripeChargeResults } from './stripe-scenarios';
import type { TargetCheck } from './targets';

/** Issue 29: a charge through Stripe at p50 ≤ this × (the sandbox charge's p50 + the stand-in's PaymentIntent create p50). */
export const STRIPE_CHARGE_OVER_FLOOR = 1.3;

const ms = (value: number) => `${value.toFixed(2)} ms`;

/** The floor: what a Stripe charge cannot avoid, the sandbox charge's work plus Stripe's own round trip. */
export const stripeChargeFloor = (s: StripeChargeResults): number => s.sandbox.summary.p50 + s.standIn.summary.p50;

export function stripeTargets(s: StripeChargeResults): TargetCheck[] {
  const floor = stripeChargeFloor(s);
  const ratio = s.stripe.summary.p50 / floor;
  return [
    {
      target: `POST /v1/invoices/{id}/charge through Stripe p50 ≤ ${STRIPE_CHARGE_OVER_FLOOR}× (the sandbox charge p50 + the stand-in's PaymentIntent create p50)`,
      measured: `${ratio.toFixed(2)}× (${ms(s.stripe.summary.p50)} vs ${ms(floor)} = ${ms(s.sandbox.summary.p50)} + ${ms(s.standIn.summary.p50)})`,
      pass: ratio <= STRIPE_CHARGE_OVER_FLOOR,
    },
  ];
}

export function stripeReport(s: StripeChargeResults): string {
  const row = (name: string, v: StripeChargeResults['sandbox']) => `| ${name} | ${ms(v.summary.p50)} | ${ms(v.summary.p95)} | ${v.callsPerRequest.toFixed(1)} |`;
  return [
    '## A charge through Stripe beside the sandbox',
    '',
    'POST /v1/invoices/{id}/charge of a 120.00 EUR invoice with a saved card, in a workspace connected to the Stripe stand-in (the official SDK over HTTP on 127.0.0.1) and in one using the sandbox, and the stand-in\'s own round trip for the PaymentIntent a charge creates (the SDK alone), interleaved:',
    '',
    '| request | p50 | p95 | DynamoDB calls |',
    '|---|---|---|---|',
    row('charge, sandbox', s.sandbox),
    row('charge, Stripe (stand-in)', s.stripe),
    row('PaymentIntent create, SDK → stand-in', s.standIn),
    '',
    `Floor: ${ms(stripeChargeFloor(s))} (sandbox charge + stand-in round trip); the Stripe charge is ${(s.stripe.summary.p50 / stripeChargeFloor(s)).toFixed(2)}× it (target ≤ ${STRIPE_CHARGE_OVER_FLOOR}×).`,
  ].join('\n');
}
