import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { lazily } from './lazy';
import { METRICS_NAMESPACE, SERVICE_NAME } from './names';

/**
 * Business metrics as CloudWatch embedded metrics (EMF): JSON lines on stdout that CloudWatch turns into metrics,
 * in namespace BillingApi with the dimension `service=billing-api`. Nothing is sent until `publishMetrics()`.
 * POWERTOOLS_METRICS_DISABLED=true (the test setup's default) keeps them off stdout. Built on first use, not at
 * import (./lazy.ts).
 */
export const metrics: Metrics = lazily(() => new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME }));

export { MetricUnit };

/** Flushes the metrics added since the last flush, if any (one EMF line); call it once per invocation. */
export function publishMetrics(): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}
