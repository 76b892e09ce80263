/**
 * A stand-in for the family's reference client (client-contract §1, §2, §19), for tests against a listening app:
 * plain `fetch` under `/api` with `Authorization: Bearer`, the `jrt` cookie kept like a browser keeps it, and
 * socket.io-client on the namespace `/api` with the options the reference build uses. Nothing here knows the server's
 * internals, so a test written with it fails where a real client would.
 */
import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { expect } from 'vitest';
import { io, type Socket } from 'socket.io-client';

export interface Seen {
  event: string;
  args: unknown[];
}

export interface Answer<T> {
  status: number;
  body: T;
}

/**
 * The browser side: local storage holds the token, the cookie jar holds `jrt` (path /api/auth). `cookies: false` is
 * a client served from another origin, which never gets the cookie back (requests without credentials); `origin` is
 * the Origin header its browser sends.
 */
export class ContractClient {
  readonly storage: { token: string | null } = { token: null };
  private refreshCookie: string | null = null;

  constructor(
    private readonly base: string,
    private readonly options: { cookies?: boolean; origin?: string } = {},
  ) {}

  async request<T = unknown>(method: string, path: string, body?: object): Promise<Answer<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.storage.token ?? 'null'}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.options.origin) headers.origin = this.options.origin;
    if (path.startsWith('/auth/') && this.refreshCookie) headers.cookie = `jrt=${this.refreshCookie}`;
    const res = await fetch(`${this.base}/api${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(20_000),
    });
    for (const line of res.headers.getSetCookie()) {
      const match = /^jrt=([^;]*)/.exec(line);
      if (match && this.options.cookies !== false) this.refreshCookie = match[1] || null;
    }
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  get hasRefreshCookie(): boolean {
    return this.refreshCookie !== null;
  }
}

/**
 * A socket as the reference client opens it. The token is read from storage at every (re)connection, and an
 * "io server disconnect" is answered with `connect()` (socket.io-client does not reconnect by itself after it).
 */
export function openReferenceSocket(
  base: string,
  auth: { token: string | null } | (() => { token: string | null }),
  /** Extra handshake query: only to tell this socket's attempts apart in a test (clients send unknown fields). */
  query?: Record<string, string>,
) {
  const socket: Socket = io(`${base}/api`, {
    transports: ['websocket', 'polling'],
    forceNew: true,
    auth: typeof auth === 'function' ? (cb) => cb(auth()) : auth,
    ...(query ? { query } : {}),
  });
  const seen: Seen[] = [];
  const counts = { connect: 0, connectError: 0, serverDisconnect: 0 };
  const errors: string[] = [];
  socket.onAny((event: string, ...args: unknown[]) => seen.push({ event, args }));
  socket.on('connect', () => (counts.connect += 1));
  socket.on('connect_error', (error) => {
    counts.connectError += 1;
    errors.push(error.message);
  });
  socket.on('disconnect', (reason) => {
    if (reason !== 'io server disconnect') return;
    counts.serverDisconnect += 1;
    socket.connect();
  });
  return { socket, seen, counts, errors };
}

/** Waits until `seen` holds an event matching `match`, and returns it. */
export async function arrives(seen: Seen[], match: (e: Seen) => boolean, timeout = 5_000): Promise<Seen> {
  await expect.poll(() => seen.find(match), { timeout, interval: 25 }).toBeDefined();
  return seen.find(match)!;
}

/** A `{T}:ticketList` event of a type whose payload satisfies `where`. */
export const ticketListEvent =
  <P>(tenantId: number, type: string, where: (payload: P) => boolean) =>
  (e: Seen): boolean => {
    const data = e.args[0] as { type?: string; payload?: P } | undefined;
    return e.event === `${tenantId}:ticketList` && data?.type === type && !!data.payload && where(data.payload);
  };

/**
 * An object as a query string, the way the reference client's HTTP library sends params: arrays as `k[]=v`,
 * nested objects in brackets, null and undefined left out.
 */
export function bracketQuery(value: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, v: unknown): void => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) {
      v.forEach((item, i) => add(typeof item === 'object' && item !== null ? `${key}[${i}]` : `${key}[]`, item));
    } else if (typeof v === 'object') {
      for (const [k, inner] of Object.entries(v)) add(`${key}[${k}]`, inner);
    } else {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
    }
  };
  for (const [k, v] of Object.entries(value)) add(k, v);
  return parts.join('&').replace(/%5B/g, '[').replace(/%5D/g, ']');
}

/**
 * Counts the socket.io handshakes reaching the HTTP server (WebSocket upgrades, and polling opens without a `sid`)
 * whose URL carries `marker`.
 */
export function countHandshakes(server: HttpServer, marker: string) {
  const state = { count: 0 };
  const seen = (req: IncomingMessage) => {
    const url = req.url ?? '';
    if (url.startsWith('/socket.io/') && url.includes(marker) && !/[?&]sid=/.test(url)) state.count += 1;
  };
  server.on('upgrade', seen);
  server.on('request', seen);
  return {
    get count() {
      return state.count;
    },
    stop() {
      server.off('upgrade', seen);
      server.off('request', seen);
    },
  };
}
