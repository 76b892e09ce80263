/**
 * Evolution API v2 over HTTP: the channel's base URL (`remotePath`), its API key in the `apikey` header and the
 * instance name in the path. Failures become ProviderError, permanent unless retrying can help (network trouble,
 * 429, 5xx). The key travels in a header, so it never appears in an error message.
 */
import type { ZodType } from 'zod';
import { defaultOutbound } from '../../../../platform/net/outbound.js';
import { OutboundError, type OutboundFetch, type OutboundResponse } from '../../../../platform/net/safe-fetch.js';
import { ProviderError } from '../../channels.adapter.js';

export const EVOLUTION_TIMEOUT_MS = 20_000;

export interface EvolutionTarget {
  baseUrl: string;
  apiKey: string;
}

export interface EvolutionClient {
  call<T>(
    target: EvolutionTarget,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body: Record<string, unknown> | null,
    result: ZodType<T>,
    /** The largest answer read (bytes); a larger one is refused for good. Default 1 MiB. */
    maxAnswerBytes?: number,
  ): Promise<T>;
}

const DEFAULT_MAX_ANSWER = 1024 * 1024;

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

const retryable = (status: number) => status === 429 || status >= 500;

/** An http(s) URL without credentials, query or fragment: what a channel's `remotePath` may be. */
export function isEvolutionBaseUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      !url.username &&
      !url.password &&
      !url.search &&
      !url.hash
    );
  } catch {
    return false;
  }
}

/**
 * `fetch` is the checked fetch (platform/net): the base URL is the company's, so its address is checked like any
 * tenant URL (OUTBOUND_ALLOW admits a gateway on a private network). Failures to reach it carry one generic text.
 */
export function createEvolutionClient(options: { timeoutMs?: number; fetch?: OutboundFetch } = {}): EvolutionClient {
  const timeoutMs = options.timeoutMs ?? EVOLUTION_TIMEOUT_MS;
  const fetcher = options.fetch ?? defaultOutbound();
  return {
    async call(target, method, path, body, result, maxAnswerBytes = DEFAULT_MAX_ANSWER) {
      if (!isEvolutionBaseUrl(target.baseUrl)) throw new ProviderError('evolution: invalid API URL', true);
      const url = `${target.baseUrl.replace(/\/+$/, '')}${path}`;
      const what = `${method} ${path.split('/').slice(0, 3).join('/')}`;
      let response: OutboundResponse;
      try {
        response = await fetcher(url, {
          method,
          headers: { apikey: target.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
          timeoutMs,
          maxBytes: maxAnswerBytes,
          redirects: 0,
        });
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error;
        // The gateway answered too much (its address passed): said as such. Anything else is the generic text.
        if (error.kind === 'too-big') throw new ProviderError(`evolution ${what}: answer too large`, true);
        throw new ProviderError(`evolution ${what}: ${error.message}`, !error.transient);
      }
      if (!response.ok) {
        throw new ProviderError(
          `evolution ${what}: HTTP ${response.status}`,
          !retryable(response.status),
          response.status,
        );
      }
      const value = result.safeParse(parseJson(response.body));
      if (!value.success) throw new ProviderError(`evolution ${what}: unexpected answer`, true);
      return value.data;
    },
  };
}
