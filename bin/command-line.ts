/**
 * The command line of every script in package.json: `--help` (or `-h`) prints the usage
 * on stdout and exits 0; an unknown option, a missing value or a bad argument prints one line saying what is wrong and
 * the usage on stderr, and exits 2. Never a stack trace: these are the first commands a newcomer types.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Prints `message` and the usage on stderr and exits 2. */
export function usageError(usage: string, message: string): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(2);
}

/** node:util's parseArgs (strict) over this process's arguments, with `--help` and one-line errors. */
export function parseCommandLine<T extends ParseArgsConfig>(usage: string, config: T): ReturnType<typeof parseArgs<T>> {
  const args = config.args ?? process.argv.slice(2);
  const beforeTerminator = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (beforeTerminator.includes('--help') || beforeTerminator.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  try {
    // strict is parseArgs' default: unknown options and stray positionals are errors.
    return parseArgs({ ...config, args }) as ReturnType<typeof parseArgs<T>>;
  } catch (error) {
    // parseArgs explains itself in its first sentence; what follows is advice about `--` that npm users cannot follow.
    usageError(usage, (error instanceof Error ? error.message : String(error)).split('. ')[0]!);
  }
}

/**
 * The table a script works on: DynamoDB Local when DYNAMODB_ENDPOINT is set (the line `npm start` prints; table
 * `billing`), else AWS with the usual credentials and TABLE_NAME, which must be set (else exits 2). Returns whether local.
 */
export function tableFromEnvironment(): boolean {
  const local = Boolean(process.env.DYNAMODB_ENDPOINT);
  if (!local && !process.env.TABLE_NAME) {
    console.error('Set TABLE_NAME (and AWS credentials), or DYNAMODB_ENDPOINT for DynamoDB Local.');
    process.exit(2);
  }
  if (local) {
    process.env.TABLE_NAME ??= 'billing';
    process.env.AWS_REGION ??= 'local';
  }
  return local;
}
