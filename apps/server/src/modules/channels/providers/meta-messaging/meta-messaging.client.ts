/**
 * Meta's Graph API over HTTP for the Messenger Platform and Instagram Messaging: one `call` for every endpoint and a
 * bounded `download` of attachment URLs. The access token travels in the Authorization header (Graph accepts a
 * bearer token), never in a URL, so it never appears in a logged path or an error message. Failures become
 * ProviderError: permanent unless retrying can help (network trouble, throttling, 5xx).
 */
import type { ZodType } from 'zod';
import { defaultOutbound } from '../../../../platform/net/outbound.js';
import { META_CDN_HOSTS } from '../../../../platform/net/provider-hosts.js';
import {
  OutboundError,
  statusError,
  type OutboundFetch,
  type OutboundResponse,
} from '../../../../platform/net/safe-fetch.js';
import { ProviderError } from '../../channels.adapter.js';
import { graphErrorSchema } from './meta-messaging.schemas.js';

const TIMEOUT_MS = 20_000;

/** Graph error codes that mean "later": throttling (4, 17, 32, 613) and temporary trouble (1, 2). */
const TRANSIENT_CODES = new Set([1, 2, 4, 17, 32, 613]);

export interface GraphCall {
  token: string;
  query?: Record<string, string>;
  json?: unknown;
  form?: FormData;
  /** Shorter than the default 20 s where a caller waits on it (profile lookups inside a webhook). */
  timeoutMs?: number;
}

export interface GraphClient {
  call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, call: GraphCall, result: ZodType<T>): Promise<T>;
  download(url: string, maxBytes: number): Promise<{ data: Buffer; mime: string | null }>;
}

/** Path segments we put into URLs are Graph ids (digits) or `me`: anything else is refused before a request. */
export function graphId(value: string | null | undefined, what: string): string {
  if (!value || !/^(me|[0-9A-Za-z_-]{1,100})$/.test(value)) throw new ProviderError(`meta: bad ${what}`, true);
  return value;
}

async function request(url: string, init: RequestInit, what: string, timeoutMs = TIMEOUT_MS): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const reason = error instanceof Error ? error.name : 'error';
    throw new ProviderError(`meta ${what}: ${reason}`, false);
  }
}

/** `graphUrl` is META_GRAPH_URL; `version` the channel's Graph version ("20.0" -> `/v20.0`). */
/** `fetch` is the checked fetch (platform/net) for attachment links; Graph itself (META_GRAPH_URL) is the operator's. */
export function createGraphClient(
  graphUrl: string,
  options: { fetch?: OutboundFetch } = {},
): GraphClient & { versioned(version: string): GraphClient } {
  const fetcher = options.fetch ?? defaultOutbound();
  // Meta's CDN hosts, and Graph's own host (the operator's META_GRAPH_URL: its simulator in tests).
  const fileHosts = [...META_CDN_HOSTS, new URL(graphUrl).hostname];
  function make(version: string): GraphClient {
    const base = `${graphUrl}/v${/^\d{1,3}\.\d{1,3}$/.test(version) ? version : '20.0'}`;
    return {
      async call(method, path, call, result) {
        const url = new URL(`${base}/${path}`);
        for (const [key, value] of Object.entries(call.query ?? {})) url.searchParams.set(key, value);
        const headers: Record<string, string> = { authorization: `Bearer ${call.token}` };
        let body: string | FormData | undefined;
        if (call.form) body = call.form;
        else if (call.json !== undefined) {
          body = JSON.stringify(call.json);
          headers['content-type'] = 'application/json';
        }
        const what = `${method} ${path}`;
        const response = await request(url.toString(), { method, headers, body }, what, call.timeoutMs);
        const answer: unknown = await response.json().catch(() => null);
        if (!response.ok) {
          const failure = graphErrorSchema.safeParse(answer);
          const code = failure.success ? failure.data.error.code : undefined;
          const message = failure.success ? (failure.data.error.message ?? '') : `HTTP ${response.status}`;
          const transient = response.status >= 500 || response.status === 429 || TRANSIENT_CODES.has(code ?? -1);
          throw new ProviderError(
            `meta ${what}: ${code ?? response.status} ${message}`.trim(),
            !transient,
            response.status,
          );
        }
        const value = result.safeParse(answer);
        if (!value.success) throw new ProviderError(`meta ${what}: unexpected answer`, true);
        return value.data;
      },
      async download(link, maxBytes) {
        // An attachment link from a webhook: only from Meta's CDN hosts, through the checked fetch, no token.
        let response: OutboundResponse;
        try {
          response = await fetcher(link, { maxBytes, timeoutMs: TIMEOUT_MS, hosts: fileHosts });
          if (!response.ok) throw statusError(response);
        } catch (error) {
          if (!(error instanceof OutboundError)) throw error;
          throw new ProviderError(`meta download: ${error.message}`, !error.transient, error.status);
        }
        return { data: response.body, mime: response.headers['content-type'] ?? null };
      },
    };
  }
  return { ...make('20.0'), versioned: make };
}
