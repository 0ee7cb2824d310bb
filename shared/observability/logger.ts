import { Logger } from '@aws-lambda-powertools/logger';
import { lazily } from './lazy';
import { SERVICE_NAME } from './names';

/**
 * The one logger (Powertools): JSON lines on stdout, which Lambda sends to the function's log group and the local
 * server to the terminal. POWERTOOLS_LOG_LEVEL sets the level (default INFO; the test setup makes it SILENT), read
 * when the logger is first used: it is built then, not at import (./lazy.ts).
 */
export const logger: Logger = lazily(() => new Logger({ serviceName: SERVICE_NAME }));
