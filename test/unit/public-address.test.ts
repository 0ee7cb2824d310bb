import { createServer } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedLookup, nonPublicRange, urlProblem, destinationProblem } from '../../shared/net/public-address';

const aws = { allowLoopback: false };
const local = { allowLoopback: true };

describe('destination URLs on AWS (no local exception)', () => {
  it.each([
    ['https://127.1/hook', 'loopback'],
    ['https://2130706433/hook', 'loopback'],
    ['https://0x7f000001/hook', 'loopback'],
    ['https://0177.0.0.1/hook', 'loopback'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['https://[::ffff:7f00:1]/hook', 'loopback'],
    ['https://[::1]/hook', 'loopback'],
    ['https://[fd00::1]/hook', 'unique-local'],
    ['https://[fe80::1]/hook', 'link-local'],
    ['https://100.64.0.1/hook', 'carrier-grade NAT'],
    ['https://169.254.169.254/latest/meta-data', 'link-local (cloud metadata)'],
    ['https://[::ffff:169.254.169.254]/', 'link-local (cloud metadata)'],
    ['https://[fd00:ec2::254]/', 'unique-local'],
    ['https://10.0.0.1/hook', 'private'],
    ['https://172.16.5.4/hook', 'private'],
    ['https://192.168.1.1/hook', 'private'],
    ['https://224.0.0.1/hook', 'multicast'],
    ['https://[ff02::1]/hook', 'multicast'],
    ['https://0.0.0.0/hook', 'unspecified ("this network")'],
    ['https://[64:ff9b::a00:1]/hook', 'private'],
    ['https://[2002:7f00:1::]/hook', 'loopback'],
  ])('%s is refused (%s)', (url, range) => {
    expect(urlProblem(url, aws)).toMatch(`non-public address`);
    expect(urlProblem(url, aws)).toContain(range);
  });

  it.each(['https://localhost/hook', 'https://foo.localhost/hook', 'https://LOCALHOST./hook'])('%s is refused as loopback', (url) => {
    expect(urlProblem(url, aws)).toMatch(/non-public address .* loopback/);
  });

  it.each(['https://metadata/hook', 'https://metadata.google.internal/x', 'https://printer.local/x', 'https://router.home.arpa/'])(
    '%s is refused as a local name',
    (url) => expect(urlProblem(url, aws)).toMatch(/public host .* local name/),
  );

  it('refuses credentials in the URL, with or without a password', () => {
    expect(urlProblem('https://user:pass@hooks.example.com/x', aws)).toBe('must not contain credentials (user:password@)');
    expect(urlProblem('https://user@hooks.example.com/x', aws)).toBe('must not contain credentials (user:password@)');
  });

  it('refuses http, even to a public host, and anything that is not a URL', () => {
    expect(urlProblem('http://hooks.example.com/x', aws)).toBe('must use https');
    expect(urlProblem('http://127.0.0.1:8080/x', aws)).toBe('must use https');
    expect(urlProblem('ftp://hooks.example.com/x', aws)).toBe('must use https');
    expect(urlProblem('hooks.example.com/x', aws)).toBe('must be an absolute URL');
  });

  it('accepts https to public names and public addresses', () => {
    for (const url of ['https://hooks.example.com/x', 'https://93.184.215.14/x', 'https://[2606:4700::1111]/x', 'https://[::ffff:8.8.8.8]/', 'https://a.b.example.com:8443/x?y=1']) {
      expect(urlProblem(url, aws)).toBeUndefined();
    }
  });
});

describe('the local exception (WEBHOOKS_ALLOW_HTTP_LOOPBACK=true)', () => {
  it('allows http and https to loopback hosts only', () => {
    for (const url of ['http://localhost:3000/x', 'http://127.0.0.1:9/x', 'http://[::1]:9/x', 'https://localhost/x', 'http://127.1/x']) {
      expect(urlProblem(url, local)).toBeUndefined();
    }
    expect(urlProblem('http://10.0.0.1/x', local)).toMatch(/must use https/);
    expect(urlProblem('https://10.0.0.1/x', local)).toMatch(/private/);
    expect(urlProblem('https://169.254.169.254/x', local)).toMatch(/metadata/);
    expect(urlProblem('http://hooks.example.com/x', local)).toMatch(/must use https/);
    expect(urlProblem('http://user:pass@localhost/x', local)).toMatch(/credentials/);
  });
});

describe('nonPublicRange', () => {
  it('judges IPv4-mapped IPv6 by its IPv4 address', () => {
    expect(nonPublicRange('::ffff:10.1.2.3')).toBe('private');
    expect(nonPublicRange('::ffff:8.8.8.8')).toBeUndefined();
  });
  it('treats IPv6 outside global unicast as non-public', () => {
    expect(nonPublicRange('4000::1')).toBe('reserved');
    expect(nonPublicRange('2001:db8::1')).toBe('documentation');
    expect(nonPublicRange('2a00:1450:4001::1')).toBeUndefined();
  });
});

describe('names that resolve inward', () => {
  it('refuses at creation a public-looking name if any of its addresses is not public', async () => {
    const dns = (answers: string[]) => async () => answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    expect(await destinationProblem('https://hooks.example.com/x', aws, dns(['93.184.215.14', '10.0.0.7']))).toBe(
      'must not resolve to a non-public address (hooks.example.com → 10.0.0.7, private)',
    );
    expect(await destinationProblem('https://hooks.example.com/x', aws, dns(['::ffff:169.254.169.254']))).toMatch(/cloud metadata/);
    expect(await destinationProblem('https://hooks.example.com/x', aws, dns(['93.184.215.14']))).toBeUndefined();
    // not resolvable (yet): accepted now, judged again at each delivery
    expect(await destinationProblem('https://hooks.example.com/x', aws, dns([]))).toBeUndefined();
  });

  it('refuses the connection at delivery when the name resolves to a loopback address', async () => {
    const server = createServer((_, response) => response.end('reached'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const attempt = (lookup: ReturnType<typeof guardedLookup>) =>
      new Promise<string>((resolve) => {
        const req = request({ host: 'localhost', port, family: 4, path: '/', lookup }, (response) => {
          response.resume();
          resolve(`status ${response.statusCode}`);
        });
        req.on('error', (error: Error & { code?: string }) => resolve(error.code ?? error.message));
        req.end();
      });
    try {
      expect(await attempt(guardedLookup(aws))).toBe('EDESTINATIONREFUSED');
      expect(await attempt(guardedLookup(local))).toBe('status 200');
    } finally {
      server.close();
    }
  });
});
