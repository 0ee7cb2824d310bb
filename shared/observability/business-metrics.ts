import { metrics, MetricUnit } from './metrics';

/** The business metrics of docs/operations.md, in namespace BillingApi. */
export const BUSINESS_METRICS = {
  invoicesIssued: 'InvoicesIssued',
  amountCollected: 'AmountCollected',
  webhookDeliveriesFailed: 'WebhookDeliveriesFailed',
} as const;

interface InvoiceData {
  currency?: unknown;
  amount_paid?: unknown;
}

/**
 * Counts what a newly recorded event says about the business: an invoice issued (`invoice.ready`, the invoice
 * numbered and due) and the amount collected when one is settled (`invoice.settled`, in minor units, one metric per
 * currency). The stream handler calls it for events it wrote itself, so a redelivered change counts nothing twice.
 */
export function countEvent(event: { event_type: string; data: unknown }): void {
  if (event.event_type === 'invoice.ready') metrics.addMetric(BUSINESS_METRICS.invoicesIssued, MetricUnit.Count, 1);
  if (event.event_type === 'invoice.settled') {
    const { currency, amount_paid: paid } = event.data as InvoiceData;
    if (typeof currency !== 'string' || !Number.isSafeInteger(paid)) return;
    // Its own EMF line: the currency is a dimension of this metric only.
    metrics.singleMetric().addDimension('currency', currency).addMetric(BUSINESS_METRICS.amountCollected, MetricUnit.Count, paid as number);
  }
}

/** A webhook POST that failed (a non-2xx answer, a timeout, a refused connection); the attempt is rescheduled. */
export function countFailedDelivery(): void {
  metrics.addMetric(BUSINESS_METRICS.webhookDeliveriesFailed, MetricUnit.Count, 1);
}
