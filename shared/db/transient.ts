import { ServiceUnavailable } from '../errors';

/** Failures that pass: a throttle, a conflict, a fault of the service, a timeout. */
const PASSING_NAMES = new Set([
  'ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'TooManyRequestsException',
  'TransactionConflictException', 'TransactionInProgressException', 'InternalServerError', 'InternalFailure',
  'ServiceUnavailable', 'ServiceUnavailableException', 'RequestTimeout', 'RequestTimeoutException', 'TimeoutError',
  'AbortError', 'ExpiredTokenException', 'KMS.ThrottlingException',
]);
/** Failures of the deployment (permissions, credentials, a missing table or queue): fixed by an operator, not by waiting. */
const MISCONFIGURED_NAMES = new Set([
  'AccessDeniedException', 'AccessDenied', 'UnrecognizedClientException', 'InvalidClientTokenId', 'CredentialsProviderError',
  'ResourceNotFoundException', 'QueueDoesNotExist', 'AWS.SimpleQueueService.NonExistentQueue',
]);
const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ECONNABORTED']);

/**
 * Whether a failure passes: the same request may succeed in a moment (an AWS service's throttle, conflict or fault,
 * the network, a timeout, middy's early timeout of an invocation). The HTTP layer answers it with a 503 and
 * `Retry-After` (shared/http/errors.ts); a batch write retries it with backoff (batch-write.ts). Unknown errors and a
 * misconfigured deployment do not pass: a 500, which the alarms see.
 */
export function isPassing(error: unknown): boolean {
  if (error instanceof ServiceUnavailable) return true; // translateWriteError's "conflict or throttle"
  if (!(error instanceof Error)) return false;
  const sdk = error as Error & { $fault?: string; $retryable?: unknown; code?: string };
  if (MISCONFIGURED_NAMES.has(error.name)) return false;
  return sdk.$fault === 'server' || Boolean(sdk.$retryable) || PASSING_NAMES.has(error.name) || TRANSIENT_CODES.has(sdk.code ?? '');
}

/**
 * Whether a stream record's failure is worth retrying rather than quarantining (quarantine.ts): a passing failure, or
 * a misconfigured deployment, which the operator fixes while the record waits. Unknown errors count as deterministic.
 */
export const isTransient = (error: unknown): boolean => isPassing(error) || (error instanceof Error && MISCONFIGURED_NAMES.has(error.name));
