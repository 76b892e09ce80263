/**
 * The one checked fetch for URLs that a company, a user or a webhook controls (media by URL, provider attachment
 * links, gateway base URLs, avatars). Every hop, the first and each redirect alike, is checked from scratch:
 * http/https only, no credentials in the URL, the host on the caller's host list if it gives one, ports 80 and 443,
 * the name resolved once and EVERY answer a public address (one refused answer refuses the URL: a name that mixes
 * public and private answers is a rebinding attempt, not a real CDN). The connection then goes to the checked
 * address (node:http's `lookup` answers it: no second DNS lookup) while TLS still verifies the certificate for the
 * host name. Redirects are followed by hand (at most `redirects`, default 5), the body is read up to `maxBytes`
 * (the transfer is cut past it) within one total `timeoutMs`.
 *
 * The operator's allow-list (`OUTBOUND_ALLOW`) lifts the address refusal for the host names and networks it names,
 * and the port restriction with it (a self-hosted Evolution on http://10.0.0.5:8080); the operator's own provider
 * API origins (`trustedOrigins`: META_GRAPH_URL, HUB_API_URL ...) are not checked at all. Neither lifts a caller's
 * host list, except that a trusted origin satisfies it (the provider's own simulator in tests, the API's own host).
 *
 * Failures are one error class with a `kind` for the caller's retry decision; its message is the same generic text
 * for every kind, so what a tenant sees never tells a refused address from a closed port or a 404 (no port scans
 * through error texts). The reason is kept in `detail`, for the server's log only.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  addressAllowed,
  EMPTY_ALLOW_LIST,
  hostMatches,
  isPublicAddress,
  parseIp,
  type OutboundAllowList,
} from './address-policy.js';

/** `refused`: the URL may not be fetched (never retry); `failed`: network trouble or timeout (retry may help);
 * `too-big`: the answer passed the size cap; `status`: the server answered a status the caller does not take. */
export type OutboundErrorKind = 'refused' | 'failed' | 'too-big' | 'status';

/** The only text a tenant ever sees of a failed outbound fetch. */
export const OUTBOUND_FAILED_MESSAGE = 'the address could not be fetched';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundErrorKind,
    /** Why, for the server's log: never put it in an answer, a message's error or an event. */
    readonly detail: string,
    readonly status?: number,
  ) {
    super(OUTBOUND_FAILED_MESSAGE);
    this.name = 'OutboundError';
  }

  /** Whether asking again later may succeed: network trouble, throttling and server errors. */
  get transient(): boolean {
    if (this.kind === 'failed') return true;
    return this.kind === 'status' && this.status !== undefined && (this.status === 429 || this.status >= 500);
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface OutboundPolicy {
  allow: OutboundAllowList;
  /** Operator-configured origins (`scheme://host[:port]`) fetched without any check. */
  trustedOrigins: readonly string[];
}

export const STRICT_POLICY: OutboundPolicy = { allow: EMPTY_ALLOW_LIST, trustedOrigins: [] };

export interface OutboundRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string | Buffer;
  maxBytes: number;
  /** The whole exchange, redirects included. */
  timeoutMs: number;
  /** Host names the URL (and every redirect) must be on: exact or `*.suffix`. Absent: any public host. */
  hosts?: readonly string[];
  /** Redirects followed (GET only); 0 answers the 3xx itself. Default 5. */
  redirects?: number;
}

export interface OutboundResponse {
  status: number;
  ok: boolean;
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
}

export type OutboundFetch = (url: string | URL, request: OutboundRequest) => Promise<OutboundResponse>;

export interface OutboundFetchOptions {
  policy?: OutboundPolicy;
  resolver?: Resolver;
}

const DEFAULT_REDIRECTS = 5;
const WEB_PORTS = new Set([80, 443]);
/** Headers kept when a redirect leaves the origin: credentials (authorization, apikey, token ...) never follow. */
const PORTABLE_HEADERS = new Set(['accept', 'accept-language', 'user-agent']);

interface Target {
  url: URL;
  host: string;
  port: number;
  /** The address to connect to; null for a trusted origin (resolved as usual). */
  pinned: ResolvedAddress | null;
}

function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** Checks one hop; answers where to connect. Throws `refused` without any connection. */
async function check(url: URL, request: OutboundRequest, policy: OutboundPolicy, resolver: Resolver): Promise<Target> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundError('refused', `scheme ${url.protocol}`);
  if (url.username || url.password) throw new OutboundError('refused', 'credentials in the URL');
  // URL keeps an IPv6 literal in brackets; node:http wants it bare.
  const host = url.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  const port = portOf(url);
  if (policy.trustedOrigins.includes(url.origin)) return { url, host, port, pinned: null };
  if (request.hosts && !hostMatches(host, request.hosts)) throw new OutboundError('refused', `host ${host}`);
  const literal = parseIp(host);
  const hostAllowed = !literal && hostMatches(host, policy.allow.hosts);
  let answers: ResolvedAddress[];
  if (literal) answers = [{ address: host, family: literal.family }];
  else {
    try {
      answers = await resolver(host);
    } catch (error) {
      throw new OutboundError('failed', `resolve ${host}: ${(error as Error).message}`);
    }
    if (answers.length === 0) throw new OutboundError('failed', `resolve ${host}: no address`);
  }
  let liftsPort = hostAllowed;
  for (const answer of answers) {
    const ip = parseIp(answer.address);
    if (!ip) throw new OutboundError('refused', `${host}: unparsable address`);
    const allowed = hostAllowed || addressAllowed(ip, policy.allow);
    if (!allowed && !isPublicAddress(ip)) throw new OutboundError('refused', `${host}: address ${answer.address}`);
    liftsPort ||= allowed;
  }
  if (!liftsPort && !WEB_PORTS.has(port)) throw new OutboundError('refused', `${host}: port ${port}`);
  return { url, host, port, pinned: answers[0]! };
}

/** node:net's lookup, answering the checked address whatever it is asked (one address or the `all` form). */
function pinnedLookup(address: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  }) as LookupFunction;
}

interface Hop {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function exchange(
  target: Target,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  maxBytes: number,
  signal: AbortSignal,
  readBody: (status: number) => boolean,
): Promise<Hop> {
  const secure = target.url.protocol === 'https:';
  const options: https.RequestOptions = {
    method,
    host: target.host,
    port: target.port,
    path: `${target.url.pathname}${target.url.search}`,
    headers: {
      ...headers,
      host: target.url.host,
      ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
    },
    agent: false,
    signal,
    ...(target.pinned ? { lookup: pinnedLookup(target.pinned) } : {}),
    // The certificate is verified for the host name even though the connection goes to a pinned address.
    ...(secure && !parseIp(target.host) ? { servername: target.host } : {}),
  };
  return new Promise<Hop>((resolve, reject) => {
    const req = (secure ? https : http).request(options, (res) => {
      const status = res.statusCode ?? 0;
      const answerHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined) answerHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      if (!readBody(status)) {
        res.destroy();
        resolve({ status, headers: answerHeaders, body: Buffer.alloc(0) });
        return;
      }
      const declared = Number(answerHeaders['content-length'] ?? 0);
      if (declared > maxBytes) {
        reject(new OutboundError('too-big', `declared ${declared} bytes`));
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          // Settled first: destroying the answer makes the request report an error of its own.
          reject(new OutboundError('too-big', `more than ${maxBytes} bytes`));
          res.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status, headers: answerHeaders, body: Buffer.concat(chunks) }));
      res.on('error', (error) => reject(new OutboundError('failed', error.message)));
      res.on('aborted', () => reject(new OutboundError('failed', 'answer aborted')));
    });
    req.on('error', (error) =>
      reject(
        signal.aborted
          ? new OutboundError('failed', 'timeout')
          : error instanceof OutboundError
            ? error
            : new OutboundError('failed', error.message),
      ),
    );
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function createOutboundFetch(options: OutboundFetchOptions = {}): OutboundFetch {
  const policy = options.policy ?? STRICT_POLICY;
  const resolver = options.resolver ?? systemResolver;
  return async (input, request) => {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new OutboundError('refused', 'not a URL');
    }
    const method = request.method ?? 'GET';
    const maxRedirects = method === 'GET' ? (request.redirects ?? DEFAULT_REDIRECTS) : 0;
    let headers = { ...(request.headers ?? {}) };
    const signal = AbortSignal.timeout(request.timeoutMs);
    for (let hop = 0; ; hop++) {
      const target = await check(url, request, policy, resolver);
      if (signal.aborted) throw new OutboundError('failed', 'timeout');
      const follows = (status: number) => REDIRECTS.has(status) && hop < maxRedirects;
      const answer = await exchange(
        target,
        method,
        headers,
        request.body,
        request.maxBytes,
        signal,
        (s) => !follows(s),
      );
      if (!follows(answer.status)) {
        const ok = answer.status >= 200 && answer.status < 300;
        return { status: answer.status, ok, headers: answer.headers, body: answer.body, url: url.toString() };
      }
      const location = answer.headers.location;
      if (!location) throw new OutboundError('status', `redirect ${answer.status} without location`, answer.status);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new OutboundError('refused', 'redirect to a malformed URL');
      }
      if (next.origin !== url.origin) {
        headers = Object.fromEntries(
          Object.entries(headers).filter(([name]) => PORTABLE_HEADERS.has(name.toLowerCase())),
        );
      }
      url = next;
    }
  };
}

/** A non-2xx answer as the error callers throw (kind `status`, the generic message). */
export function statusError(response: OutboundResponse): OutboundError {
  return new OutboundError('status', `answered ${response.status}`, response.status);
}
