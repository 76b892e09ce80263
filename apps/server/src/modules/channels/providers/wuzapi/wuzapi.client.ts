/**
 * Wuzapi's REST API over HTTP: the channel's base URL (`remotePath`), the user token in the `Token` header, JSON in
 * and `{code, data, success}` out. Failures become ProviderError, permanent unless retrying can help (network
 * trouble, 429, 5xx other than the session answers that only a new connection changes).
 */
import type { ZodType } from 'zod';
import { defaultOutbound } from '../../../../platform/net/outbound.js';
import { OutboundError, type OutboundFetch, type OutboundResponse } from '../../../../platform/net/safe-fetch.js';
import { ProviderError, type ChannelCredentials } from '../../channels.adapter.js';
import { wuzapiEnvelopeSchema } from './wuzapi.schemas.js';

const TIMEOUT_MS = 30_000;

export interface WuzapiTarget {
  baseUrl: string;
  token: string;
}

export interface WuzapiClient {
  call<T>(
    target: WuzapiTarget,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body: Record<string, unknown> | null,
    result: ZodType<T>,
    options?: { maxBytes?: number },
  ): Promise<T>;
}

/** Wuzapi answers 500 for a session it does not have; retrying the same call cannot change that. */
const SESSION_ERRORS = /no session|not connected|not logged in|already logged in|already paired/i;

/** The channel's gateway: an http(s) base URL and the user token, or a permanent error. */
export function wuzapiTarget(channel: ChannelCredentials): WuzapiTarget {
  const base = channel.remotePath?.trim();
  if (!base || !/^https?:\/\/[^\s/]+/i.test(base)) throw new ProviderError('wuzapi: the channel has no base URL', true);
  if (!channel.tokenAPI) throw new ProviderError('wuzapi: the channel has no user token', true);
  return { baseUrl: base.replace(/\/+$/, ''), token: channel.tokenAPI };
}

/**
 * `fetch` is the checked fetch (platform/net): the base URL is the company's, so its address is checked like any
 * tenant URL (OUTBOUND_ALLOW admits a gateway on a private network). Failures to reach it carry one generic text.
 */
export function createWuzapiClient(clientOptions: { fetch?: OutboundFetch } = {}): WuzapiClient {
  const fetcher = clientOptions.fetch ?? defaultOutbound();
  return {
    async call(target, method, path, body, result, options = {}) {
      const what = `wuzapi ${path}`;
      let response: OutboundResponse;
      try {
        response = await fetcher(`${target.baseUrl}${path}`, {
          method,
          headers: { Token: target.token, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
          timeoutMs: TIMEOUT_MS,
          maxBytes: options.maxBytes ?? 1024 * 1024,
          redirects: 0,
        });
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error;
        // The gateway answered too much (its address passed): said as such. Anything else is the generic text.
        if (error.kind === 'too-big') throw new ProviderError(`${what}: answer too large`, true);
        throw new ProviderError(`${what}: ${error.message}`, !error.transient);
      }
      const text = response.body.toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        // Not JSON (a proxy's error page): judged by the status below.
      }
      const envelope = wuzapiEnvelopeSchema.safeParse(json);
      const message = envelope.success && typeof envelope.data.error === 'string' ? envelope.data.error : '';
      if (!response.ok || !envelope.success || envelope.data.success === false) {
        const status = response.status;
        // 501 is Wuzapi's "disabled for this user" (message history): asking again cannot change it.
        const retryable = (status === 429 || (status >= 500 && status !== 501)) && !SESSION_ERRORS.test(message);
        throw new ProviderError(`${what}: HTTP ${status} ${message}`.trim(), !retryable, status);
      }
      const value = result.safeParse(envelope.data.data);
      if (!value.success) throw new ProviderError(`${what}: unexpected answer`, true);
      return value.data;
    },
  };
}
