/**
 * The WhatsApp Cloud API (Meta's Graph API) over HTTP: `${graphUrl}/v${version}/...` with `Authorization: Bearer`.
 * Graph refusals (`{ error: { message, type, code, error_subcode, fbtrace_id } }`) become WabaGraphError, a
 * ProviderError that is permanent unless retrying can help: 5xx, HTTP 429, Graph's rate-limit codes and errors Graph
 * itself marks `is_transient`. The token never appears in an error message.
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
import { ProviderError, type ChannelCredentials } from '../../channels.adapter.js';
import {
  graphBusinessPageSchema,
  graphErrorSchema,
  graphMediaSchema,
  graphPhonePageSchema,
  graphPhoneSchema,
  graphSentSchema,
  graphTemplatePageSchema,
  graphUploadSchema,
  graphWabaPageSchema,
  type GraphError,
  type GraphTemplate,
} from './waba.schemas.js';

const TIMEOUT_MS = 30_000;
/** Graph answers are small; anything bigger is not Graph. */
const ANSWER_MAX_BYTES = 4 * 1024 * 1024;
/** How many pages a listing follows (`paging.next`) before it stops: a loop guard, far above real accounts. */
const MAX_PAGES = 50;

/**
 * Rate limits and throttling (API calls, spam rate limit, pair rate limit, per-number throughput): a retry later
 * goes through. 1 and 2 are Graph's "unknown error" and "service unavailable".
 */
export const WABA_TRANSIENT_CODES: ReadonlySet<number> = new Set([1, 2, 4, 80007, 130429, 131048, 131056]);

/** What every Cloud API call of a channel needs. */
export interface WabaCreds {
  token: string;
  /** Phone number id (`wabaId` on the channel). */
  phoneNumberId: string;
  /** WhatsApp Business Account id (`bmToken` on the channel): templates are listed under it. */
  businessAccountId: string | null;
  /** Graph version without the `v` ("20.0"). */
  version: string;
}

/** A Graph refusal: Graph's code and subcode kept for callers that decide by them (131047: window closed). */
export class WabaGraphError extends ProviderError {
  constructor(
    message: string,
    permanent: boolean,
    status: number,
    readonly code: number | null,
    readonly subcode: number | null,
  ) {
    super(message, permanent, status);
    this.name = 'WabaGraphError';
  }
}

const GRAPH_ID = /^\d{1,30}$/;
const VERSION = /^v?(\d{1,2}\.\d{1,2})$/;

/** The version as the URL segment wants it ("20.0" or "v20.0" -> "20.0"); anything else is refused. */
export function graphVersion(value: string | null | undefined): string {
  const match = VERSION.exec((value ?? '').trim() || '20.0');
  if (!match) throw new ProviderError('waba: malformed Graph API version', true);
  return match[1]!;
}

/** A Graph id that may go into a URL path (numeric ids only: nothing else can reach another endpoint). */
export function graphId(value: string | null | undefined, what: string): string {
  const id = (value ?? '').trim();
  if (!GRAPH_ID.test(id)) throw new ProviderError(`waba: malformed ${what}`, true);
  return id;
}

/**
 * The channel's Cloud API facts (decisions.md field mapping). `fallbackToken` is the tenant's `wabaToken`, used when
 * the channel has no token of its own.
 */
export function wabaCredsOf(channel: ChannelCredentials, fallbackToken?: string | null): WabaCreds {
  const token = channel.tokenAPI?.trim() || fallbackToken?.trim();
  if (!token) throw new ProviderError('waba: the channel has no access token', true);
  return {
    token,
    phoneNumberId: graphId(channel.wabaId, 'phone number id'),
    businessAccountId: channel.bmToken?.trim() ? graphId(channel.bmToken, 'business account id') : null,
    version: graphVersion(channel.wabaVersion),
  };
}

/** Permanent unless a retry can help (see WABA_TRANSIENT_CODES). */
export function graphErrorIsTransient(status: number, error: GraphError | null): boolean {
  if (status === 429 || status >= 500) return true;
  if (!error) return false;
  return error.is_transient === true || (error.code !== undefined && WABA_TRANSIENT_CODES.has(error.code));
}

async function readBounded(response: Response, maxBytes: number, what: string): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new ProviderError(`${what}: too large`, true);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > maxBytes) throw new ProviderError(`${what}: too large`, true);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

async function request(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
  } catch (error) {
    throw new ProviderError(`${what}: ${error instanceof Error ? error.name : 'error'}`, false);
  }
}

export interface WabaBusinessAccount {
  id: string;
  name: string;
  phoneNumbers: { id: string; displayPhoneNumber: string; verifiedName: string | null }[];
}

export interface WabaClient {
  /** One Graph call; `path` starts after the version (`/123/messages`) or is an absolute `paging.next` URL. */
  call<T>(
    token: string,
    version: string,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body: Record<string, unknown> | FormData | null,
    result: ZodType<T>,
  ): Promise<T>;
  /** The phone number's display number (digits) and verified name: `GET /{phone-number-id}`. */
  verifyPhone(creds: WabaCreds): Promise<{ number: string; verifiedName: string | null }>;
  /**
   * Whether the phone number is one of the business account's (`GET /{waba-id}/phone_numbers` with the token, paged):
   * Graph lists them only to a token that reaches the account.
   */
  accountHasPhone(creds: WabaCreds): Promise<boolean>;
  /** Every template of the business account (`/{waba-id}/message_templates`, paged through `paging.next`). */
  listTemplates(creds: WabaCreds): Promise<GraphTemplate[]>;
  /** The businesses of a user/system token, their WhatsApp Business Accounts' phone numbers (flattened per WABA). */
  businessAccounts(token: string, version?: string): Promise<WabaBusinessAccount[]>;
  /** `POST /{phone-number-id}/messages` with a Cloud API message body; the new message's wamid. */
  sendMessage(creds: WabaCreds, body: Record<string, unknown>): Promise<{ id: string; waId: string | null }>;
  /** `POST /{phone-number-id}/media` (multipart): the media id to send by. */
  uploadMedia(creds: WabaCreds, file: { data: Buffer; mime: string; name: string }): Promise<string>;
  /** `GET /{media-id}` then its URL with the bearer token, at most `maxBytes`. */
  downloadMedia(creds: WabaCreds, mediaId: string, maxBytes: number): Promise<{ data: Buffer; mime: string | null }>;
}

/** `fetch` is the checked fetch (platform/net) for media links; Graph itself (META_GRAPH_URL) is the operator's. */
export function createWabaClient(options: { graphUrl: string; fetch?: OutboundFetch }): WabaClient {
  const fetcher = options.fetch ?? defaultOutbound();
  // Meta's CDN hosts, and Graph's own host (the operator's META_GRAPH_URL: its simulator in tests).
  const fileHosts = [...META_CDN_HOSTS, new URL(options.graphUrl).hostname];
  const root = options.graphUrl.replace(/\/+$/, '');

  async function call<T>(
    token: string,
    version: string,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body: Record<string, unknown> | FormData | null,
    result: ZodType<T>,
  ): Promise<T> {
    // Only Graph's own paging URLs may be absolute: they are followed with the token, so they must stay on Graph.
    if (/^https?:/i.test(path) && !path.startsWith(`${root}/`)) {
      throw new ProviderError('waba: paging URL outside the Graph API', true);
    }
    const url = /^https?:/i.test(path) ? path : `${root}/v${graphVersion(version)}${path}`;
    const what = `waba ${method} ${path.replace(/^https?:\/\/[^/]+/, '').split('?')[0]}`;
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    let payload: RequestInit['body'];
    if (body instanceof FormData) payload = body;
    else if (body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await request(url, { method, headers, body: payload }, what);
    const raw = await readBounded(response, ANSWER_MAX_BYTES, what);
    let json: unknown = null;
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      // Not JSON (a proxy's error page): judged by the status below.
    }
    if (!response.ok) {
      const parsed = graphErrorSchema.safeParse(json);
      const error = parsed.success ? parsed.data.error : null;
      const code = error?.code ?? null;
      const detail = error ? `${code ?? response.status}: ${error.message}` : `HTTP ${response.status}`;
      throw new WabaGraphError(
        `${what}: ${detail}`.slice(0, 500),
        !graphErrorIsTransient(response.status, error),
        response.status,
        code,
        error?.error_subcode ?? null,
      );
    }
    const value = result.safeParse(json);
    if (!value.success) throw new ProviderError(`${what}: unexpected answer`, true);
    return value.data;
  }

  /** Every item of a paged listing (follows `paging.next`, at most MAX_PAGES pages). */
  async function pages<T>(
    token: string,
    version: string,
    first: string,
    schema: ZodType<{ data: T[]; paging?: { next?: string } }>,
  ): Promise<T[]> {
    const items: T[] = [];
    let next: string | undefined = first;
    for (let page = 0; next && page < MAX_PAGES; page++) {
      const answer: { data: T[]; paging?: { next?: string } } = await call(token, version, 'GET', next, null, schema);
      items.push(...answer.data);
      next = answer.data.length ? answer.paging?.next : undefined;
    }
    return items;
  }

  return {
    call,

    async verifyPhone(creds) {
      const phone = await call(
        creds.token,
        creds.version,
        'GET',
        `/${graphId(creds.phoneNumberId, 'phone number id')}?fields=display_phone_number,verified_name`,
        null,
        graphPhoneSchema,
      );
      const number = (phone.display_phone_number ?? '').replace(/\D/g, '');
      if (!number) throw new ProviderError('waba: the phone number has no display number', true);
      return { number, verifiedName: phone.verified_name ?? null };
    },

    async accountHasPhone(creds) {
      const waba = graphId(creds.businessAccountId, 'business account id');
      const phone = graphId(creds.phoneNumberId, 'phone number id');
      const listed = await pages(
        creds.token,
        creds.version,
        `/${waba}/phone_numbers?fields=id&limit=100`,
        graphPhonePageSchema,
      );
      return listed.some((item) => item.id === phone);
    },

    async listTemplates(creds) {
      const waba = graphId(creds.businessAccountId, 'business account id');
      return pages(
        creds.token,
        creds.version,
        `/${waba}/message_templates?fields=id,name,language,status,category,components&limit=100`,
        graphTemplatePageSchema,
      );
    },

    async businessAccounts(token, version = '20.0') {
      const businesses = await pages(
        token,
        version,
        '/me/businesses?fields=id,name&limit=100',
        graphBusinessPageSchema,
      );
      const accounts: WabaBusinessAccount[] = [];
      for (const business of businesses) {
        const bm = graphId(business.id, 'business id');
        const wabas = await pages(
          token,
          version,
          `/${bm}/owned_whatsapp_business_accounts?fields=id,name&limit=100`,
          graphWabaPageSchema,
        );
        for (const waba of wabas) {
          const phones = await pages(
            token,
            version,
            `/${graphId(waba.id, 'business account id')}/phone_numbers?fields=id,display_phone_number,verified_name&limit=100`,
            graphPhonePageSchema,
          );
          accounts.push({
            id: waba.id,
            name: waba.name ?? business.name ?? waba.id,
            phoneNumbers: phones.map((phone) => ({
              id: phone.id,
              displayPhoneNumber: phone.display_phone_number ?? '',
              verifiedName: phone.verified_name ?? null,
            })),
          });
        }
      }
      return accounts;
    },

    async sendMessage(creds, body) {
      const answer = await call(
        creds.token,
        creds.version,
        'POST',
        `/${graphId(creds.phoneNumberId, 'phone number id')}/messages`,
        { messaging_product: 'whatsapp', recipient_type: 'individual', ...body },
        graphSentSchema,
      );
      return { id: answer.messages[0]!.id, waId: answer.contacts?.[0]?.wa_id ?? null };
    },

    async uploadMedia(creds, file) {
      const form = new FormData();
      form.set('messaging_product', 'whatsapp');
      form.set('type', file.mime);
      form.set('file', new Blob([new Uint8Array(file.data)], { type: file.mime }), file.name);
      const answer = await call(
        creds.token,
        creds.version,
        'POST',
        `/${graphId(creds.phoneNumberId, 'phone number id')}/media`,
        form,
        graphUploadSchema,
      );
      return answer.id;
    },

    async downloadMedia(creds, mediaId, maxBytes) {
      const info = await call(
        creds.token,
        creds.version,
        'GET',
        `/${graphId(mediaId, 'media id')}`,
        null,
        graphMediaSchema,
      );
      if ((info.file_size ?? 0) > maxBytes) throw new ProviderError('waba download: file too large', true);
      // The media URL is on Meta's CDN host (lookaside), not under the Graph root; it wants the same bearer token,
      // so it is fetched only from Meta's CDN hosts (or Graph's own host), through the checked fetch, with
      // no redirect (the token would follow it).
      let response: OutboundResponse;
      try {
        response = await fetcher(info.url, {
          headers: { authorization: `Bearer ${creds.token}` },
          maxBytes,
          timeoutMs: TIMEOUT_MS,
          hosts: fileHosts,
          redirects: 0,
        });
        if (!response.ok) throw statusError(response);
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error;
        throw new ProviderError(`waba download: ${error.message}`, !error.transient, error.status);
      }
      return { data: response.body, mime: info.mime_type ?? response.headers['content-type'] ?? null };
    },
  };
}
