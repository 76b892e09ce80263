/**
 * Evolution API v2 over HTTP: the channel's base URL (`remotePath`), its API key in the `apikey` header and the
 * instance name in the path. Failures become ProviderError, permanent unless retrying can help (network trouble,
 * 429, 5xx). The key travels in a header, so it never appears in an error message.
 */
import type { ZodType } from 'zod';
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

async function readJson(response: Response, maxBytes: number, what: string): Promise<unknown> {
  const tooLarge = () => new ProviderError(`evolution ${what}: answer too large`, true);
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
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

export function createEvolutionClient(options: { timeoutMs?: number } = {}): EvolutionClient {
  const timeoutMs = options.timeoutMs ?? EVOLUTION_TIMEOUT_MS;
  return {
    async call(target, method, path, body, result, maxAnswerBytes = DEFAULT_MAX_ANSWER) {
      if (!isEvolutionBaseUrl(target.baseUrl)) throw new ProviderError('evolution: invalid API URL', true);
      const url = `${target.baseUrl.replace(/\/+$/, '')}${path}`;
      const what = `${method} ${path.split('/').slice(0, 3).join('/')}`;
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers: { apikey: target.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
      } catch (error) {
        const reason = error instanceof Error ? error.name : 'error';
        throw new ProviderError(`evolution ${what}: ${reason}`, false);
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new ProviderError(
          `evolution ${what}: HTTP ${response.status}`,
          !retryable(response.status),
          response.status,
        );
      }
      const value = result.safeParse(await readJson(response, maxAnswerBytes, what));
      if (!value.success) throw new ProviderError(`evolution ${what}: unexpected answer`, true);
      return value.data;
    },
  };
}
