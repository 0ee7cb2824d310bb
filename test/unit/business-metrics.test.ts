import { jest } from '@jest/globals';
import { BUSINESS_METRICS, countEvent, countFailedDelivery } from '../../shared/observability/business-metrics';
import { metrics } from '../../shared/observability/metrics';

/** The metrics buffered since the last clear, as the EMF line would carry them: name → value(s). */
const buffered = (): Record<string, unknown> => {
  if (!metrics.hasStoredMetrics()) return {};
  const emf = metrics.serializeMetrics() as unknown as Record<string, unknown> & { _aws: { CloudWatchMetrics: { Namespace: string; Metrics: { Name: string }[] }[] } };
  expect(emf._aws.CloudWatchMetrics[0]!.Namespace).toBe('BillingApi');
  return Object.fromEntries(emf._aws.CloudWatchMetrics[0]!.Metrics.map((m) => [m.Name, emf[m.Name]]));
};

afterEach(() => {
  metrics.clearMetrics();
  jest.restoreAllMocks();
});

test('an invoice.ready event counts one invoice issued; events about anything else count nothing', () => {
  countEvent({ event_type: 'customer.created', data: {} });
  countEvent({ event_type: 'invoice.created', data: {} });
  expect(buffered()).toEqual({});
  countEvent({ event_type: 'invoice.ready', data: {} });
  countEvent({ event_type: 'invoice.ready', data: {} });
  expect(buffered()).toEqual({ [BUSINESS_METRICS.invoicesIssued]: [1, 1] });
});

test('an invoice.settled event adds its amount paid (minor units) to the amount collected in its currency', () => {
  const added: [string, string, number][] = [];
  const single = {
    addDimension(_name: string, currency: string) {
      return { addMetric: (name: string, _unit: unknown, value: number) => added.push([name, currency, value]) };
    },
  };
  jest.spyOn(metrics, 'singleMetric').mockReturnValue(single as never);
  countEvent({ event_type: 'invoice.settled', data: { currency: 'EUR', amount_paid: 12345 } });
  countEvent({ event_type: 'invoice.settled', data: { currency: 'JPY', amount_paid: 500 } });
  // Not an integer amount: not a number of minor units, so not counted.
  countEvent({ event_type: 'invoice.settled', data: { currency: 'EUR', amount_paid: '12.5' } });
  expect(added).toEqual([[BUSINESS_METRICS.amountCollected, 'EUR', 12345], [BUSINESS_METRICS.amountCollected, 'JPY', 500]]);
  expect(buffered()).toEqual({});
});

test('a delivery given up on counts one failed delivery', () => {
  countFailedDelivery();
  expect(buffered()).toEqual({ [BUSINESS_METRICS.webhookDeliveriesFailed]: 1 });
});
