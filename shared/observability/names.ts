/** The CloudWatch namespace of the API's own metrics (docs/operations.md), and the `service` on every log line. */
export const METRICS_NAMESPACE = 'BillingApi';
export const SERVICE_NAME = 'billing-api';
