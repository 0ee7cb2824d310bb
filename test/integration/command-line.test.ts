import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';

/**
 * Every program a package.json script runs with tsx (bin/command-line.ts): `--help` prints its usage and exits 0, an
 * unknown option one line and the usage and exits 2, never a stack trace. The scripts are read from package.json, so
 * a new one is covered as soon as it exists; those running tsc, jest or cdk answer --help themselves.
 */
const run = promisify(execFile);
const scripts = Object.values(JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>);
const programs = [...new Set(scripts.flatMap((line) => [...line.matchAll(/\btsx (\S+\.ts)\b/g)].map((m) => m[1]!)))];

/** Runs the program as its script does (tsx), never waiting for the network or DynamoDB: both cases exit at once. */
async function start(program: string, arg: string) {
  const env = { ...process.env, DYNAMODB_ENDPOINT: '', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
  return run(process.execPath, ['--import', 'tsx', program, arg], { env, timeout: 60_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

// One test for all programs, spawned together: a tsx start is ~1 s of CPU each, and the machine has few cores.
it('the scripts of package.json print their usage for --help and refuse an unknown option in one line', async () => {
  expect(programs).toEqual(expect.arrayContaining(['bin/cli.ts', 'bin/token.ts', 'bin/local.ts', 'bin/quarantine.ts', 'test/bench/run.ts']));
  const answers = await Promise.all(programs.map(async (program) => ({ program, help: await start(program, '--help'), bad: await start(program, '--no-such-option') })));
  for (const { program, help, bad } of answers) {
    expect({ program, code: help.code, firstLine: help.stdout.split('\n')[0] }).toEqual({ program, code: 0, firstLine: expect.stringMatching(/^usage: /) });
    expect({ program, stderr: help.stderr }).toEqual({ program, stderr: '' });
    expect({ program, code: bad.code, stdout: bad.stdout }).toEqual({ program, code: 2, stdout: '' });
    const [first, blank, usage] = bad.stderr.split('\n');
    expect({ program, first, blank, usage }).toEqual({ program, first: "Unknown option '--no-such-option'", blank: '', usage: help.stdout.split('\n')[0] });
    expect(bad.stderr).not.toMatch(/^\s+at /m);
  }
}, 120_000);
