import { ServiceUnavailable } from '../../shared/errors';
import { isTransient } from '../../shared/db/transient';

const sdk = (name: string, fault: 'client' | 'server', extra: object = {}) => Object.assign(new Error(name), { name, $fault: fault, ...extra });
const network = (code: string) => Object.assign(new Error(code), { code });

describe('which stream failures are retried and which quarantine the record', () => {
  it.each([
    ['throttling', sdk('ProvisionedThroughputExceededException', 'client')],
    ['a throttled request', sdk('ThrottlingException', 'client')],
    ['a DynamoDB server error', sdk('InternalServerError', 'server')],
    ['any server fault', sdk('SomethingNew', 'server')],
    ['an error the SDK marks retryable', sdk('Odd', 'client', { $retryable: { throttling: false } })],
    ['a transaction conflict, as translated', new ServiceUnavailable()],
    ['missing permissions (a deployment problem)', sdk('AccessDeniedException', 'client')],
    ['a reset connection', network('ECONNRESET')],
    ['a DNS failure', network('EAI_AGAIN')],
  ])('retries %s', (_, error) => expect(isTransient(error)).toBe(true));

  it.each([
    ['an item DynamoDB refuses (too large, too deep)', sdk('ValidationException', 'client')],
    ['a mapping that throws on an unexpected shape', new TypeError("Cannot read properties of undefined (reading '0')")],
    ['a number beyond safe integers', new Error('Number 123456789012345678901 is greater than Number.MAX_SAFE_INTEGER.')],
    ['something that is not an Error', 'boom'],
  ])('quarantines %s', (_, error) => expect(isTransient(error)).toBe(false));
});
