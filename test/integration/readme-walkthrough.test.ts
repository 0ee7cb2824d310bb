import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { README_BASE_URL, README_KEY_PLACEHOLDER, stableForm, walkthroughBlocks } from '../support/readme-blocks';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy';
import { responseViolations } from '../support/response-contract';
import { installed } from '../support/system-tools';

/**
 * The README's walkthroughs, run verbatim as a reader runs them (README, "Testing notes"): bin/local.ts started as
 * `npm start` starts it (here on the test DynamoDB Local, in a table of its own, with its .local/ in a temporary
 * folder), the key it prints pasted where the README says `sk_test_…`, the ```sh blocks run in one bash, in order, from
 * the repository's folder, through a proxy that checks every answer against its route's schema. What each block
 * prints is compared, in its stable form (support/readme-blocks.ts), with the output the README shows after it.
 */
const tools = installed('curl') && installed('jq');
if (!tools) console.warn('README walkthrough test skipped: it needs curl and jq (apt-get install curl jq; macOS: brew install jq).');
const describeWithTools = tools ? describe : describe.skip;

const blocks = walkthroughBlocks(readFileSync('README.md', 'utf8'));
/** Files the walkthroughs download into the repository's folder, as a reader's would; removed afterwards. */
const DOWNLOADS = { 'invoice.pdf': '%PDF-', 'invoice.xml': '<?xml' };
const marker = (index: number) => `@@readme-block-${index}@@`;

interface Server { process: ChildProcess; url: string; key: string; output: () => string }

/** bin/local.ts on a free port, once it printed its banner (the base URL and the key). */
function startServer(env: NodeJS.ProcessEnv): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const output = () => `${stdout}\n${stderr}`;
  return new Promise((started, failed) => {
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      const key = /^export TOKEN=(sk_test_\S+)$/m.exec(stdout)?.[1];
      if (url && key && /^OAuth:/m.test(stdout)) started({ process: child, url, key, output });
    });
    child.on('exit', (code) => failed(new Error(`bin/local.ts exited (${code}) before it printed its banner:\n${output()}`)));
  });
}

/** The blocks as one bash script: a marker on stdout before each, so that each block's output can be told apart. */
function script(server: { key: string }, proxyUrl: string): string {
  const body = blocks.map((block, index) => `printf '\\n%s\\n' '${marker(index)}'\n${block.script}`).join('\n');
  return `set -euo pipefail\n${body.split(README_BASE_URL).join(proxyUrl).split(README_KEY_PLACEHOLDER).join(server.key)}\nprintf '\\n%s\\n' '${marker(blocks.length)}'\n`;
}

function runBash(file: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('bash', [file], { env, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

describeWithTools('the README walkthroughs', () => {
  const table = `readme-${randomUUID().slice(0, 8)}`;
  let dir: string;
  let server: Server;
  let proxy: RecordingProxy;
  let run: { code: number; stdout: string; stderr: string };
  const downloaded: Record<string, string> = {};

  beforeAll(async () => {
    for (const file of Object.keys(DOWNLOADS)) rmSync(file, { force: true });
    dir = mkdtempSync(join(tmpdir(), 'readme-walkthrough-'));
    // A reader's shell: no jest flags for node, rate limits on as npm start has them, its own table and .local/.
    const { NODE_OPTIONS: _jestFlags, RATE_LIMIT_ENABLED: _limitsOff, ...shell } = process.env;
    const env = { ...shell, TABLE_NAME: table, LOCAL_DIR: dir };
    server = await startServer(env);
    proxy = await startRecordingProxy(server.url);
    writeFileSync(join(dir, 'walkthrough.sh'), script(server, proxy.url));
    run = await runBash(join(dir, 'walkthrough.sh'), env);
    for (const file of Object.keys(DOWNLOADS)) downloaded[file] = existsSync(file) ? readFileSync(file).subarray(0, 5).toString('latin1') : '(missing)';
  }, 150_000);

  afterAll(async () => {
    for (const file of Object.keys(DOWNLOADS)) rmSync(file, { force: true });
    await proxy?.close();
    if (server && server.process.exitCode === null) {
      const exited = new Promise((done) => server.process.once('exit', done));
      server.process.kill('SIGTERM');
      await exited;
    }
    await new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'local' }).send(new DeleteTableCommand({ TableName: table })).catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  /** What block `index` printed: between its marker and the next one. */
  const printed = (index: number) => {
    const start = run.stdout.indexOf(`${marker(index)}\n`);
    const end = run.stdout.indexOf(`\n${marker(index + 1)}`);
    if (start < 0 || end < 0) throw new Error(`the block did not complete (bash exit ${run.code}); stderr:\n${run.stderr}\nserver:\n${server.output().slice(-4000)}`);
    return run.stdout.slice(start + marker(index).length + 1, end);
  };

  it('has walkthroughs, and runs them all to the end', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it.each(blocks.map((block, index) => ({ ...block, index })))('the block at README.md:$line prints what the README shows', ({ index, expected }) => {
    expect(stableForm(printed(index), [server.url, proxy.url])).toBe(stableForm(expected ?? ''));
  });

  it('gets answers that are 2xx and match their routes’ documented schemas', () => {
    expect(proxy.exchanges.length).toBeGreaterThan(20);
    const problems = proxy.exchanges.flatMap(({ method, url, status, headers, body }) => {
      const contentType = headers['content-type'] ?? null;
      const parsed = contentType?.startsWith('application/json') ? JSON.parse(body.toString('utf8')) : body;
      const violations = responseViolations(method, url, status, contentType, parsed);
      return status >= 200 && status < 300 && violations.length === 0 ? [] : [`${method} ${url} ${status}: ${violations.join('; ')} ${body.toString('utf8').slice(0, 300)}`];
    });
    expect(problems).toEqual([]);
  });

  it('downloads the files it says', () => {
    expect(downloaded).toEqual(DOWNLOADS);
  });
});
