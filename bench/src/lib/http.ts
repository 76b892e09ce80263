/** The HTTP scenarios: autocannon on 127.0.0.1 with rotating paths where a scenario rotates. */
import autocannon from 'autocannon';
import { clientAddress } from './api.js';
import { sampleRss } from './server.js';

export interface HttpScenario {
  name: string;
  method?: 'GET' | 'POST';
  /** A fixed path, or the next path on each request. */
  path: string | (() => string);
  token?: string;
  /** The next body on each request (JSON). */
  body?: () => unknown;
  /** The next X-Forwarded-For on each request (the login scenario's virtual clients). */
  forwardedFor?: () => string;
}

export interface HttpResult {
  scenario: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  statusCodes: Record<string, number>;
  errors: number;
  rssPeakMb: number;
  rssMeanMb: number;
}

export async function runHttp(
  baseUrl: string,
  pid: number,
  scenario: HttpScenario,
  options: { connections: number; duration: number },
): Promise<HttpResult> {
  const nextPath = typeof scenario.path === 'string' ? () => scenario.path as string : scenario.path;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (scenario.token) headers.authorization = `Bearer ${scenario.token}`;
  const rss = sampleRss(pid);
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.duration,
    requests: [
      {
        method: scenario.method ?? 'GET',
        setupRequest: (request) => ({
          ...request,
          path: nextPath(),
          headers: scenario.forwardedFor ? { ...headers, 'x-forwarded-for': scenario.forwardedFor() } : headers,
          body: scenario.body ? JSON.stringify(scenario.body()) : undefined,
        }),
      },
    ],
  });
  const memory = rss.stop();
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stats?.count ?? 0;
  return {
    scenario: scenario.name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    statusCodes,
    errors: result.errors + result.timeouts,
    rssPeakMb: memory.peakMb,
    rssMeanMb: memory.meanMb,
  };
}

/** Round-robin over a list. */
export function rotate<T>(items: T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length]!;
}

/** Login bodies over many seeded users, and, when `perClientAddress`, a new client address per request. */
export function loginScenario(name: string, emails: string[], password: string, perClientAddress: boolean) {
  const nextEmail = rotate(emails);
  let n = 1_000;
  return {
    name,
    method: 'POST' as const,
    path: '/api/auth/login/',
    body: () => ({ email: nextEmail(), password }),
    forwardedFor: perClientAddress ? () => clientAddress(n++) : undefined,
  };
}
