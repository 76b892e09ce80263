/**
 * The checked fetch against loopback test servers only. Names are answered by a stub resolver; a refused address
 * is refused before any connection (the servers count theirs), so nothing here reaches a non-loopback address.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOutboundAllow } from './address-policy.js';
import {
  createOutboundFetch,
  OUTBOUND_FAILED_MESSAGE,
  OutboundError,
  type OutboundFetch,
  type Resolver,
} from './safe-fetch.js';

interface TestServer {
  url: string;
  port: number;
  /** Connections accepted and requests answered. */
  connections: number;
  requests: { url: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

async function serve(handler: http.RequestListener, host = '127.0.0.1'): Promise<TestServer> {
  const server = http.createServer((req, res) => {
    state.requests.push({ url: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  const state: TestServer = {
    url: '',
    port: 0,
    connections: 0,
    requests: [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => (state.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://${host}:${state.port}`;
  return state;
}

/** A resolver stub that counts its calls and answers from a table (a function for changing answers). */
function stubResolver(table: Record<string, string[] | ((call: number) => string[])>) {
  const calls: string[] = [];
  const resolve: Resolver = async (host) => {
    calls.push(host);
    const entry = table[host];
    if (!entry) throw new Error(`ENOTFOUND ${host}`);
    const answers = typeof entry === 'function' ? entry(calls.filter((h) => h === host).length) : entry;
    return answers.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
  };
  return { resolve, calls };
}

const allowing = (allow: string, resolver?: Resolver, trustedOrigins: string[] = []): OutboundFetch =>
  createOutboundFetch({ policy: { allow: parseOutboundAllow(allow), trustedOrigins }, resolver });

const GET = { maxBytes: 10_000, timeoutMs: 5_000 };

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

let ok: TestServer;
let other: TestServer;
let canary: TestServer;

beforeAll(async () => {
  ok = await serve((req, res) => {
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      // No content-length: the cap must stop the stream itself.
      for (let i = 0; i < 20; i++) res.write(Buffer.alloc(1000, 1));
      res.end();
    } else if (req.url === '/declared-big') {
      res.writeHead(200, { 'content-length': '50000' });
      res.end(Buffer.alloc(50_000));
    } else if (req.url === '/hang') {
      res.writeHead(200);
      res.write('x'); // and never ends
    } else if (req.url?.startsWith('/to?')) {
      res.writeHead(302, { location: decodeURIComponent(req.url.slice(4)) });
      res.end();
    } else if (req.url?.startsWith('/loop/')) {
      const n = Number(req.url.slice(6));
      res.writeHead(302, { location: `/loop/${n + 1}` });
      res.end();
    } else if (req.url === '/missing') {
      res.writeHead(404);
      res.end('not here');
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`hello ${req.url}`);
    }
  });
  other = await serve((_req, res) => res.end('other'));
  // 127.0.0.2 is loopback too, but outside the 127.0.0.1/32 the tests allow: it must never see a connection.
  canary = await serve((_req, res) => res.end('SECRET'), '127.0.0.2');
});
afterAll(async () => {
  await Promise.all([ok.close(), other.close(), canary.close()]);
});

describe('the address check before connecting', () => {
  it('refuses loopback, private, link-local and mapped literals without the allow-list', async () => {
    const strict = createOutboundFetch();
    for (const url of [
      ok.url,
      canary.url,
      `http://[::1]:${ok.port}/`,
      `http://[::ffff:127.0.0.1]:${ok.port}/`,
      `http://[::ffff:7f00:1]:${ok.port}/`,
      'http://0x7f000001/', // WHATWG URL parsing turns these into 127.0.0.1
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://0.0.0.0/',
    ]) {
      const error = await failure(strict(url, GET));
      expect(error.kind, url).toBe('refused');
    }
    expect(ok.connections + canary.connections).toBe(0);
  });

  it('refuses a name whose answers include one refused address, and reaches none of them', async () => {
    const { resolve, calls } = stubResolver({
      'internal.example': ['10.0.0.5'],
      'mixed.example': ['127.0.0.1', '10.0.0.5'],
      'metadata.example': ['::ffff:169.254.169.254'],
      'v6.example': ['fc00::7'],
    });
    const fetcher = allowing('127.0.0.1/32', resolve);
    for (const host of ['internal.example', 'mixed.example', 'metadata.example', 'v6.example']) {
      const error = await failure(fetcher(`http://${host}:${ok.port}/`, GET));
      expect(error.kind, host).toBe('refused');
    }
    expect(calls).toEqual(['internal.example', 'mixed.example', 'metadata.example', 'v6.example']);
    expect(ok.connections).toBe(0);
  });

  it('a name that does not resolve fails as network trouble', async () => {
    const { resolve } = stubResolver({});
    const error = await failure(allowing('', resolve)('http://nowhere.example/', GET));
    expect(error.kind).toBe('failed');
    expect(error.transient).toBe(true);
  });

  it('refuses other schemes, credentials in the URL and ports other than 80/443', async () => {
    const { resolve, calls } = stubResolver({ 'public.example': ['93.184.216.34'] });
    const fetcher = allowing('', resolve);
    for (const url of [
      'ftp://public.example/',
      'file:///etc/passwd',
      'data:text/plain,hi',
      'gopher://public.example/',
    ]) {
      expect((await failure(fetcher(url, GET))).kind, url).toBe('refused');
    }
    expect((await failure(fetcher('http://user:pw@public.example/', GET))).kind).toBe('refused');
    // A public address on another port: refused once resolved, before any connection.
    for (const port of [22, 8080, 6379, 5432]) {
      const error = await failure(fetcher(`http://public.example:${port}/`, GET));
      expect(error.kind).toBe('refused');
      expect(error.detail).toMatch(/port/);
    }
    expect(calls.length).toBe(4);
  });

  it("refuses a host outside the caller's host list before resolving it", async () => {
    const { resolve, calls } = stubResolver({ 'evil.example': ['93.184.216.34'] });
    const error = await failure(
      allowing('', resolve)('https://evil.example/a.jpg', { ...GET, hosts: ['*.fbcdn.net'] }),
    );
    expect(error.kind).toBe('refused');
    expect(calls).toEqual([]);
  });
});

describe('the allow-list', () => {
  it('an allowed network is reached on any port', async () => {
    const answer = await allowing('127.0.0.1/32')(`${ok.url}/x`, GET);
    expect(answer).toMatchObject({ status: 200, ok: true });
    expect(answer.body.toString()).toBe('hello /x');
  });

  it('an allowed host name may resolve to a private address', async () => {
    const { resolve } = stubResolver({ 'evo.lan': ['127.0.0.1'] });
    const answer = await allowing('evo.lan', resolve)(`http://evo.lan:${ok.port}/h`, GET);
    expect(answer.body.toString()).toBe('hello /h');
    expect(ok.requests.at(-1)!.headers.host).toBe(`evo.lan:${ok.port}`);
  });

  it("a trusted origin (the operator's provider API) is fetched unchecked and satisfies a host list", async () => {
    const answer = await allowing('', undefined, [ok.url])(`${ok.url}/cdn/a.jpg`, { ...GET, hosts: ['*.fbcdn.net'] });
    expect(answer.body.toString()).toBe('hello /cdn/a.jpg');
    // Only that origin: the other loopback server stays refused.
    expect((await failure(allowing('', undefined, [ok.url])(other.url, GET))).kind).toBe('refused');
  });
});

describe('the connection goes to the checked address', () => {
  it('resolves once and connects to that answer, even if the name would answer otherwise later', async () => {
    // First answer loopback (allowed), then a refused address: a second lookup would be a rebinding.
    const { resolve, calls } = stubResolver({ 'pinned.example': (n) => (n === 1 ? ['127.0.0.1'] : ['10.0.0.1']) });
    const before = ok.requests.length;
    const answer = await allowing('127.0.0.1/32', resolve)(`http://pinned.example:${ok.port}/pinned`, GET);
    expect(answer.body.toString()).toBe('hello /pinned');
    expect(calls).toEqual(['pinned.example']);
    expect(ok.requests.length).toBe(before + 1);
    expect(ok.requests.at(-1)!.headers.host).toBe(`pinned.example:${ok.port}`);
  });

  it('TLS goes to the checked address and asks for the host name (SNI), not the address', async () => {
    let hello: Buffer = Buffer.alloc(0);
    const tlsCatcher = net.createServer((socket) => {
      socket.once('data', (chunk: Buffer) => {
        hello = chunk;
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => tlsCatcher.listen(0, '127.0.0.1', resolve));
    const port = (tlsCatcher.address() as AddressInfo).port;
    const { resolve, calls } = stubResolver({ 'secure.example': ['127.0.0.1'] });
    const error = await failure(allowing('127.0.0.1/32', resolve)(`https://secure.example:${port}/`, GET));
    await new Promise((done) => tlsCatcher.close(done));
    expect(error.kind).toBe('failed');
    expect(calls).toEqual(['secure.example']);
    // The ClientHello reached the pinned address and names the host (server_name extension, in clear).
    expect(hello.includes(Buffer.from('secure.example'))).toBe(true);
  });
});

describe('redirects', () => {
  const to = (target: string) => `${ok.url}/to?${encodeURIComponent(target)}`;

  it('a redirect to a refused address is refused without connecting to it', async () => {
    const fetcher = allowing('127.0.0.1/32');
    for (const target of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      `${canary.url}/`,
      `http://[::ffff:127.0.0.2]:${canary.port}/`,
      'file:///etc/passwd',
    ]) {
      expect((await failure(fetcher(to(target), GET))).kind, target).toBe('refused');
    }
    expect(canary.connections).toBe(0);
  });

  it('a redirect to a name is resolved and checked again', async () => {
    const { resolve, calls } = stubResolver({ 'rebind.example': ['192.168.0.10'] });
    const error = await failure(allowing('127.0.0.1/32', resolve)(to('http://rebind.example/'), GET));
    expect(error.kind).toBe('refused');
    expect(calls).toEqual(['rebind.example']);
  });

  it('a redirect leaving the host list is refused', async () => {
    const error = await failure(
      allowing('', undefined, [ok.url])(to('http://evil.example/'), { ...GET, hosts: ['*.fbcdn.net'] }),
    );
    expect(error.kind).toBe('refused');
  });

  it('an allowed redirect is followed; credentials do not follow it to another origin', async () => {
    const fetcher = allowing('127.0.0.1/32');
    const answer = await fetcher(to(`${other.url}/next`), { ...GET, headers: { authorization: 'Bearer s3cret' } });
    expect(answer.body.toString()).toBe('other');
    expect(other.requests.at(-1)!.headers.authorization).toBeUndefined();
    const same = await fetcher(to('/same'), { ...GET, headers: { authorization: 'Bearer s3cret' } });
    expect(same.body.toString()).toBe('hello /same');
    expect(ok.requests.at(-1)!.headers.authorization).toBe('Bearer s3cret');
  });

  it('follows at most 5 redirects, and none when the caller says 0', async () => {
    const fetcher = allowing('127.0.0.1/32');
    const before = ok.requests.length;
    const answer = await fetcher(`${ok.url}/loop/0`, GET);
    expect(answer).toMatchObject({ status: 302, ok: false });
    expect(ok.requests.length - before).toBe(6);
    expect((await fetcher(`${ok.url}/loop/0`, { ...GET, redirects: 0 })).status).toBe(302);
  });
});

describe('size and time', () => {
  const fetcher = () => allowing('127.0.0.1/32');

  it('cuts a body past the cap, streamed or declared', async () => {
    expect((await failure(fetcher()(`${ok.url}/big`, { ...GET, maxBytes: 5_000 }))).kind).toBe('too-big');
    expect((await failure(fetcher()(`${ok.url}/declared-big`, GET))).kind).toBe('too-big');
    expect((await fetcher()(`${ok.url}/big`, { ...GET, maxBytes: 20_000 })).body.length).toBe(20_000);
  });

  it('gives up after the total time', async () => {
    const started = Date.now();
    const error = await failure(fetcher()(`${ok.url}/hang`, { ...GET, timeoutMs: 300 }));
    expect(error.kind).toBe('failed');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('a closed port is network trouble', async () => {
    const closed = await serve((_req, res) => res.end());
    await closed.close();
    expect((await failure(fetcher()(closed.url, GET))).kind).toBe('failed');
  });
});

describe('the error text', () => {
  it('is the same for a refused address, a closed port, a timeout and a cap; only kind and detail differ', async () => {
    const closed = await serve((_req, res) => res.end());
    await closed.close();
    const errors = await Promise.all([
      failure(allowing('127.0.0.1/32')('http://10.0.0.1/', GET)),
      failure(allowing('127.0.0.1/32')(closed.url, GET)),
      failure(allowing('127.0.0.1/32')(`${ok.url}/hang`, { ...GET, timeoutMs: 200 })),
      failure(allowing('127.0.0.1/32')(`${ok.url}/big`, { ...GET, maxBytes: 10 })),
    ]);
    expect(new Set(errors.map((e) => e.message))).toEqual(new Set([OUTBOUND_FAILED_MESSAGE]));
    expect(errors.map((e) => e.kind)).toEqual(['refused', 'failed', 'failed', 'too-big']);
    expect(errors.map((e) => e.transient)).toEqual([false, true, true, false]);
  });
});
