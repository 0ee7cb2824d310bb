import { AGEING, INTERVALS, METRIC_NAMES } from '../domain/analytics/metrics';
import { MOVEMENTS } from '../domain/analytics/mrr';
import { arrayOf, currency, date, enumOf, id, object, out, resource, type Schema } from './common';

/** docs/analytics.md defines each metric. */
export const metricPath: Schema = object({ metric: { ...enumOf(METRIC_NAMES), description: 'The metric (docs/analytics.md).' } }, ['metric']);

const common = {
  currency: { ...currency, description: 'The currency of the figures: amounts are never converted, each currency is read apart.' },
  invoicing_entity_id: { ...id, description: "One invoicing entity's figures; without it, every entity's summed." },
};

export const overviewQuery: Schema = object(common, ['currency']);

export const metricQuery: Schema = object(
  {
    ...common,
    from: { ...date, description: 'First UTC day (YYYY-MM-DD), included. Default: 11 months, 11 weeks or 29 days before `to`, by `interval`.' },
    to: { ...date, description: 'Last UTC day, included. Default: today. At most 4,000 days after `from`.' },
    interval: { ...enumOf(INTERVALS), description: 'The periods of `data`. Default: month.' },
  },
  ['currency'],
);

const amount = out.amount;
const count = { ...out.integer, description: 'A count.' };
const breakdown = Object.fromEntries([...MOVEMENTS, ...AGEING.map((b) => b.name)].map((name) => [name, amount]));

/** One period's figure: `value`, and for mrr_movements and outstanding_receivables its parts (which sum to it). */
const dataPoint = resource(
  {
    period_start: { ...out.string, description: 'The first UTC day of the period (a Monday for weeks, the 1st for months); for outstanding_receivables, today.' },
    value: { ...out.integer, description: 'Minor units for amounts, a number for counts.' },
    ...breakdown,
  },
  Object.keys(breakdown),
);

export const metricResource: Schema = resource({
  metric: enumOf(METRIC_NAMES),
  currency: out.string,
  interval: enumOf(INTERVALS),
  invoicing_entity_id: out.nullableString,
  from: out.string,
  to: out.string,
  data: arrayOf(dataPoint),
});

export const overviewResource: Schema = resource({
  currency: out.string,
  invoicing_entity_id: out.nullableString,
  date: { ...out.string, description: 'Today (UTC): the day the levels are taken at.' },
  month_start: { ...out.string, description: 'The first day of the month the `month` figures cover (to today).' },
  mrr: amount,
  arr: { ...amount, description: '12 × mrr.' },
  arpa: { ...amount, description: 'Average revenue per active customer: mrr ÷ active_customers, rounded (0 without any).' },
  active_customers: count,
  active_subscriptions: count,
  month: resource({
    churned_customers: count,
    mrr_movements: resource(Object.fromEntries(MOVEMENTS.map((m) => [m, amount]))),
    invoiced: amount,
    collected: amount,
    credited: amount,
    refunded: amount,
  }),
  outstanding_receivables: resource({ total: amount, ...Object.fromEntries(AGEING.map((b) => [b.name, amount])) }),
});
