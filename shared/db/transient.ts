import { ServiceUnavailable } from '../errors';

/** Failures that say "try again later" (throttling, capacity, network, credentials, a missing resource), not "this input is bad". */
const TRANSIENT_NAMES = new Set([
  'ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'TooManyRequestsException',
  'TransactionConflictException', 'TransactionInProgressException', 'InternalServerError', 'InternalFailure',
  'ServiceUnavailable', 'ServiceUnavailableException', 'RequestTimeout', 'RequestTimeoutException', 'TimeoutError',
  'AbortError', 'AccessDeniedException', 'AccessDenied', 'UnrecognizedClientException', 'ExpiredTokenException',
  'InvalidClientTokenId', 'CredentialsProviderError', 'ResourceNotFoundException', 'QueueDoesNotExist',
  'AWS.SimpleQueueService.NonExistentQueue', 'KMS.ThrottlingException',
]);
const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ECONNABORTED']);

/**
 * Whether a failure is transient: the same work may succeed if tried again later (an AWS service's throttle,
 * conflict or fault, the network, a timeout, middy's early timeout of an invocation), rather than deterministic.
 * The stream consumers retry a transient failure and quarantine any other (quarantine.ts); the HTTP layer answers
 * it with a 503 and `Retry-After` (shared/http/errors.ts). Unknown errors count as deterministic.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof ServiceUnavailable) return true; // translateWriteError's "conflict or throttle"
  if (!(error instanceof Error)) return false;
  const sdk = error as Error & { $fault?: string; $retryable?: unknown; code?: string };
  return sdk.$fault === 'server' || Boolean(sdk.$retryable) || TRANSIENT_NAMES.has(error.name) || TRANSIENT_CODES.has(sdk.code ?? '');
}
