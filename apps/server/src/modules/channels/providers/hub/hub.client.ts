/**
 * The NotificaMe hub's REST API over fetch: base `HUB_API_URL` (https://hub.notificame.com.br/v1), the account's token
 * in `X-API-Token`. Failures become ProviderError, permanent unless retrying can help (network trouble, 429, 5xx); the
 * token is a header, so it never appears in an error message. File downloads from the hub's CDN links never carry the
 * token (the links are public and may point anywhere); WhatsApp files go through the hub's own media call.
 */
import type { ZodType } from 'zod';
import { z } from 'zod';
import { defaultOutbound } from '../../../../platform/net/outbound.js';
import { HUB_FILE_HOSTS } from '../../../../platform/net/provider-hosts.js';
import {
  OutboundError,
  statusError,
  type OutboundFetch,
  type OutboundResponse,
} from '../../../../platform/net/safe-fetch.js';
import { ProviderError } from '../../channels.adapter.js';
import {
  hubChannelListSchema,
  hubSentSchema,
  hubSubscriptionSchema,
  hubTemplateListSchema,
  type HubAccountChannel,
} from './hub.schemas.js';

const TIMEOUT_MS = 20_000;

export interface HubFile {
  data: Buffer;
  mime: string | null;
}

export interface HubClient {
  listChannels(token: string): Promise<HubAccountChannel[]>;
  /** `POST /channels/{channel}/messages`; answers the hub's message id. */
  sendMessage(token: string, channel: string, body: Record<string, unknown>): Promise<string>;
  subscribe(token: string, channelId: string, url: string): Promise<string>;
  unsubscribe(token: string, subscriptionId: string): Promise<void>;
  listTemplates(token: string, channelId: string): Promise<unknown[]>;
  /** A WhatsApp file of an inbound message, through the hub (`POST /channels/whatsapp/media`). */
  whatsappMedia(token: string, from: string, content: Record<string, unknown>, maxBytes: number): Promise<HubFile>;
  /** A file by its public link (Facebook, Instagram and e-mail attachments). */
  download(url: string, maxBytes: number): Promise<HubFile>;
}

const retryable = (status: number) => status === 429 || status >= 500;

async function request(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'follow' });
  } catch (error) {
    const reason = error instanceof Error ? error.name : 'error';
    throw new ProviderError(`hub ${what}: ${reason}`, false);
  }
}

/** The hub's error text: `{ message }`, `{ error }` or `{ errors: [...] }`, cut short. */
async function refusal(response: Response, what: string): Promise<ProviderError> {
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  const text = [body?.message, body?.error, body?.description].find((v) => typeof v === 'string') as string | undefined;
  const detail = text ? ` ${text.slice(0, 200)}` : '';
  return new ProviderError(`hub ${what}: ${response.status}${detail}`, !retryable(response.status), response.status);
}

async function readBounded(response: Response, maxBytes: number, what: string): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new ProviderError(`hub ${what}: file too large`, true);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > maxBytes) throw new ProviderError(`hub ${what}: file too large`, true);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

const segment = (value: string) => encodeURIComponent(value);

/** `fetch` is the checked fetch (platform/net) for file links; the API itself (HUB_API_URL) is the operator's. */
export function createHubClient(apiUrl: string, options: { fetch?: OutboundFetch } = {}): HubClient {
  const fetcher = options.fetch ?? defaultOutbound();
  // The hub's file hosts, and its API's own host (the operator's HUB_API_URL: its simulator in tests).
  const fileHosts = [...HUB_FILE_HOSTS, new URL(apiUrl).hostname];
  const headers = (token: string, json = true): Record<string, string> => ({
    'x-api-token': token,
    accept: 'application/json',
    ...(json ? { 'content-type': 'application/json' } : {}),
  });

  async function call<T>(
    token: string,
    method: string,
    path: string,
    body: unknown,
    result: ZodType<T>,
    what: string,
  ): Promise<T> {
    if (!token) throw new ProviderError('hub: no API token', true);
    const init: RequestInit = { method, headers: headers(token, body !== undefined) };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await request(`${apiUrl}${path}`, init, what);
    if (!response.ok) throw await refusal(response, what);
    const parsed = result.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw new ProviderError(`hub ${what}: unexpected answer`, true);
    return parsed.data;
  }

  function fileOf(response: Response, maxBytes: number, what: string): Promise<HubFile> {
    return readBounded(response, maxBytes, what).then((data) => ({
      data,
      mime: response.headers.get('content-type')?.split(';')[0]?.trim() || null,
    }));
  }

  return {
    listChannels: (token) => call(token, 'GET', '/channels', undefined, hubChannelListSchema, 'channels'),

    async sendMessage(token, channel, body) {
      const sent = await call(token, 'POST', `/channels/${segment(channel)}/messages`, body, hubSentSchema, 'send');
      return sent.id;
    },

    async subscribe(token, channelId, url) {
      const body = { criteria: { channel: channelId }, webhook: { url } };
      return (await call(token, 'POST', '/subscriptions', body, hubSubscriptionSchema, 'subscribe')).id;
    },

    async unsubscribe(token, subscriptionId) {
      await call(token, 'DELETE', `/subscriptions/${segment(subscriptionId)}`, undefined, z.unknown(), 'unsubscribe');
    },

    listTemplates: (token, channelId) =>
      call(token, 'GET', `/templates/${segment(channelId)}`, undefined, hubTemplateListSchema, 'templates'),

    async whatsappMedia(token, from, content, maxBytes) {
      if (!token) throw new ProviderError('hub: no API token', true);
      const body = JSON.stringify({ from, contents: [content] });
      const init = { method: 'POST', headers: headers(token), body };
      const response = await request(`${apiUrl}/channels/whatsapp/media`, init, 'media');
      if (!response.ok) throw await refusal(response, 'media');
      return fileOf(response, maxBytes, 'media');
    },

    async download(url, maxBytes) {
      // A public link a webhook carried: only from the hosts the hub's files live on, through the checked fetch.
      let response: OutboundResponse;
      try {
        response = await fetcher(url, { maxBytes, timeoutMs: TIMEOUT_MS, hosts: fileHosts });
        if (!response.ok) throw statusError(response);
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error;
        throw new ProviderError(`hub download: ${error.message}`, !error.transient, error.status);
      }
      return { data: response.body, mime: response.headers['content-type']?.split(';')[0]?.trim() || null };
    },
  };
}
