/**
 * The Bot API over HTTP: one `call` for every method and one `download` for files. Failures become ProviderError,
 * permanent unless retrying can help (network trouble, 429, 5xx). The token travels in the URL, so it never appears
 * in an error message.
 */
import type { ZodType } from 'zod';
import { ProviderError } from '../../channels.adapter.js';
import { telegramResponseSchema } from './telegram.schemas.js';

/** A bot token as BotFather issues it; anything else must not be pasted into a URL path. */
export const TELEGRAM_TOKEN_PATTERN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;

const TIMEOUT_MS = 20_000;

export interface TelegramClient {
  call<T>(token: string, method: string, params: Record<string, unknown> | FormData, result: ZodType<T>): Promise<T>;
  download(token: string, filePath: string, maxBytes: number): Promise<{ data: Buffer; mime: string | null }>;
}

const retryable = (status: number) => status === 429 || status >= 500;

function assertToken(token: string): void {
  if (!TELEGRAM_TOKEN_PATTERN.test(token)) throw new ProviderError('telegram: malformed bot token', true);
}

async function request(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const reason = error instanceof Error ? error.name : 'error';
    throw new ProviderError(`telegram ${what}: ${reason}`, false);
  }
}

async function readBounded(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new ProviderError('telegram download: file too large', true);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > maxBytes) throw new ProviderError('telegram download: file too large', true);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

export function createTelegramClient(apiRoot: string): TelegramClient {
  return {
    async call(token, method, params, result) {
      assertToken(token);
      const body = params instanceof FormData ? params : JSON.stringify(params);
      const headers: Record<string, string> = params instanceof FormData ? {} : { 'content-type': 'application/json' };
      const response = await request(`${apiRoot}/bot${token}/${method}`, { method: 'POST', body, headers }, method);
      const parsed = telegramResponseSchema.safeParse(await response.json().catch(() => null));
      if (!parsed.success) {
        throw new ProviderError(`telegram ${method}: HTTP ${response.status}`, !retryable(response.status));
      }
      const answer = parsed.data;
      if (!answer.ok) {
        const status = answer.error_code;
        throw new ProviderError(`telegram ${method}: ${status} ${answer.description}`, !retryable(status), status);
      }
      const value = result.safeParse(answer.result);
      if (!value.success) throw new ProviderError(`telegram ${method}: unexpected answer`, true);
      return value.data;
    },

    async download(token, filePath, maxBytes) {
      assertToken(token);
      if (filePath.includes('..')) throw new ProviderError('telegram download: bad file path', true);
      const response = await request(`${apiRoot}/file/bot${token}/${filePath}`, { method: 'GET' }, 'download');
      if (!response.ok) {
        throw new ProviderError(`telegram download: HTTP ${response.status}`, !retryable(response.status));
      }
      return { data: await readBounded(response, maxBytes), mime: response.headers.get('content-type') };
    },
  };
}
