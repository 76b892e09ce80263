/**
 * A local stand-in for Meta's Graph API as the WhatsApp Cloud API uses it (tests, e2e and the bench only; real HTTP
 * on 127.0.0.1, random port; META_GRAPH_URL points here). It knows phone numbers, the business account (WABA) each
 * belongs to and which tokens reach which account: a number's own token reaches its account, and `accountAccess`
 * gives a token more (a BSP's or system user's token assigned several accounts); a number, its sends and the
 * account's number list are answered only to a token that reaches the account. It answers phone details, message
 * sends (recorded), media upload and download (the download URL wants the bearer token, like Meta's CDN), paged
 * number and template listings and the business listing, refuses wrong tokens with Graph's 190,
 * and can be told to fail the next send with any Graph error (131047 re-engagement, 130429 throttling ...).
 * `deliver` builds and signs webhook POSTs to our server as Meta does. Imports only node and the signature helper,
 * so the e2e suite loads it as it loads telegram.simulator.ts.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signMetaBody } from '../../providers/meta/meta.signature.js';
import { readRawBody } from '../../providers/simulator-body.js';

export interface SimulatedPhone {
  token: string;
  displayPhoneNumber: string;
  verifiedName: string;
  /** The WhatsApp Business Account that owns the number. */
  businessAccountId: string;
}

export interface SimulatedSend {
  phoneNumberId: string;
  token: string;
  /** The JSON body as received. */
  body: Record<string, unknown>;
  /** The wamid answered. */
  id: string;
}

export interface SimulatedMedia {
  data: Buffer;
  mime: string;
  name: string | null;
  /** The phone number that uploaded it (null: put there by a test, as an inbound customer file). */
  phoneNumberId: string | null;
}

export interface SimulatedGraphError {
  status: number;
  error: { message: string; type?: string; code: number; error_subcode?: number; error_data?: { details?: string } };
}

export interface WabaSimulator {
  url: string;
  phones: Map<string, SimulatedPhone>;
  /** Templates per business account id, in Graph's shape. */
  templates: Map<
    string,
    { id: string; name: string; language: string; status: string; category: string | null; components: unknown[] }[]
  >;
  /** Token -> the business account ids it reaches besides those of the numbers it owns. */
  accountAccess: Map<string, Set<string>>;
  /** `/me/businesses` per token: businesses and the business accounts they own. */
  businesses: Map<string, { id: string; name: string; accounts: { id: string; name: string }[] }[]>;
  media: Map<string, SimulatedMedia>;
  sends: SimulatedSend[];
  /** Every request seen (method, path without the version, token). */
  requests: { method: string; path: string; token: string | null }[];
  /** Items per page of the listings (templates, businesses), small so paging is exercised. */
  pageSize: number;
  /** The next send of the phone number (any when null) answers this Graph error. */
  failNextSend(error: SimulatedGraphError, phoneNumberId?: string | null): void;
  sendsTo(to: string): SimulatedSend[];
  close(): Promise<void>;
}

/** Graph's refusal of a token it does not know. */
const INVALID_TOKEN: SimulatedGraphError = {
  status: 401,
  error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190 },
};
const notFound = (id: string): SimulatedGraphError => ({
  status: 400,
  error: {
    message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
    type: 'GraphMethodException',
    code: 100,
    error_subcode: 33,
  },
});
const invalidParameter = (details: string): SimulatedGraphError => ({
  status: 400,
  error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100, error_data: { details } },
});

const wamid = () => `wamid.${randomBytes(24).toString('base64url')}`;
const numericId = () => String(10n ** 14n + BigInt(Math.floor(Math.random() * 1e14)));

export async function startWabaSimulator(): Promise<WabaSimulator> {
  const phones = new Map<string, SimulatedPhone>();
  const templates: WabaSimulator['templates'] = new Map();
  const businesses: WabaSimulator['businesses'] = new Map();
  const accountAccess: WabaSimulator['accountAccess'] = new Map();
  const media = new Map<string, SimulatedMedia>();
  const sends: SimulatedSend[] = [];
  const requests: WabaSimulator['requests'] = [];
  const failures: { error: SimulatedGraphError; phoneNumberId: string | null }[] = [];
  let baseUrl = '';

  const sim: WabaSimulator = {
    url: '',
    phones,
    templates,
    accountAccess,
    businesses,
    media,
    sends,
    requests,
    pageSize: 2,
    failNextSend: (error, phoneNumberId = null) => void failures.push({ error, phoneNumberId }),
    sendsTo: (to) => sends.filter((send) => send.body.to === to || send.body.recipient === to),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  /** A token is known when it owns a phone number, reaches an account or lists businesses. */
  const knownToken = (token: string | null) =>
    !!token &&
    ([...phones.values()].some((p) => p.token === token) || businesses.has(token) || accountAccess.has(token));

  /** Whether the token reaches the business account (a number of it is the token's, or it was given access). */
  const reachesAccount = (token: string, account: string) =>
    [...phones.values()].some((p) => p.businessAccountId === account && p.token === token) ||
    accountAccess.get(token)?.has(account) === true ||
    (businesses.get(token) ?? []).some((b) => b.accounts.some((a) => a.id === account));
  const reachesPhone = (token: string, phone: SimulatedPhone) =>
    phone.token === token || reachesAccount(token, phone.businessAccountId);

  /** One page of `items` at `offset` (the `after` cursor), with `paging.next` while more remain. */
  function page<T>(items: T[], path: string, query: URLSearchParams): { data: T[]; paging?: { next: string } } {
    const offset = Math.max(0, Number(query.get('after') ?? 0) || 0);
    const data = items.slice(offset, offset + sim.pageSize);
    if (offset + sim.pageSize >= items.length) return { data };
    const next = new URLSearchParams(query);
    next.set('after', String(offset + sim.pageSize));
    return { data, paging: { next: `${baseUrl}/v20.0${path}?${next.toString()}` } };
  }

  function graph(
    method: string,
    path: string,
    query: URLSearchParams,
    token: string,
    body: Buffer,
    type: string,
  ): Promise<[number, unknown]> | [number, unknown] {
    const segments = path.split('/').filter(Boolean);
    const [first, second] = segments as [string, string | undefined];
    const fail = (error: SimulatedGraphError): [number, unknown] => [
      error.status,
      { error: { ...error.error, fbtrace_id: 'Asim' } },
    ];

    if (method === 'GET' && first === 'me' && second === 'businesses') {
      const list = (businesses.get(token) ?? []).map(({ id, name }) => ({ id, name }));
      return [200, page(list, path, query)];
    }
    if (method === 'GET' && second === 'owned_whatsapp_business_accounts') {
      const business = (businesses.get(token) ?? []).find((b) => b.id === first);
      if (!business) return fail(notFound(first));
      return [200, page(business.accounts, path, query)];
    }
    if (method === 'GET' && second === 'phone_numbers') {
      if (!reachesAccount(token, first)) return fail(notFound(first));
      const list = [...phones.entries()]
        .filter(([, p]) => p.businessAccountId === first)
        .map(([id, p]) => ({ id, display_phone_number: p.displayPhoneNumber, verified_name: p.verifiedName }));
      return [200, page(list, path, query)];
    }
    if (method === 'GET' && second === 'message_templates') {
      if (!reachesAccount(token, first)) return fail(notFound(first));
      return [200, page(templates.get(first) ?? [], path, query)];
    }

    const phone = phones.get(first);
    if (phone && !reachesPhone(token, phone)) return fail(notFound(first));
    if (method === 'GET' && phone && !second) {
      return [
        200,
        {
          id: first,
          display_phone_number: phone.displayPhoneNumber,
          verified_name: phone.verifiedName,
          quality_rating: 'GREEN',
        },
      ];
    }
    if (method === 'POST' && phone && second === 'messages') {
      let json: Record<string, unknown>;
      try {
        json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      } catch {
        return fail(invalidParameter('body is not JSON'));
      }
      const index = failures.findIndex((f) => f.phoneNumberId === null || f.phoneNumberId === first);
      if (index >= 0) return fail(failures.splice(index, 1)[0]!.error);
      if (json.messaging_product !== 'whatsapp') return fail(invalidParameter('messaging_product is required'));
      const to = typeof json.to === 'string' ? json.to : typeof json.recipient === 'string' ? json.recipient : '';
      if (!to) return fail(invalidParameter('to is required'));
      const kind = typeof json.type === 'string' ? json.type : 'text';
      const inner = json[kind] as Record<string, unknown> | undefined;
      if (!inner || typeof inner !== 'object') return fail(invalidParameter(`${kind} object is required`));
      if (inner.id !== undefined && !media.has(String(inner.id))) return fail(invalidParameter('unknown media id'));
      const id = wamid();
      sends.push({ phoneNumberId: first, token, body: json, id });
      return [
        200,
        {
          messaging_product: 'whatsapp',
          contacts: [{ input: to, wa_id: to.replace(/\D/g, '') || to }],
          messages: [{ id }],
        },
      ];
    }
    if (method === 'POST' && phone && second === 'media') {
      return new Request('http://local/', { method: 'POST', headers: { 'content-type': type }, body })
        .formData()
        .then(async (form): Promise<[number, unknown]> => {
          const file = form.get('file');
          if (form.get('messaging_product') !== 'whatsapp' || !file || typeof file === 'string') {
            return fail(invalidParameter('messaging_product and file are required'));
          }
          const id = numericId();
          media.set(id, {
            data: Buffer.from(await file.arrayBuffer()),
            mime: file.type,
            name: file.name,
            phoneNumberId: first,
          });
          return [200, { id }];
        })
        .catch(() => fail(invalidParameter('not a multipart body')));
    }
    if (method === 'GET' && !second && media.has(first)) {
      const file = media.get(first)!;
      // Uploaded media is readable by its uploader's token; inbound media by any token that owns a number.
      const uploader = file.phoneNumberId ? phones.get(file.phoneNumberId) : undefined;
      if (file.phoneNumberId && !(uploader && reachesPhone(token, uploader))) return fail(notFound(first));
      return [
        200,
        {
          messaging_product: 'whatsapp',
          url: `${baseUrl}/lookaside/${first}?ext=1`,
          mime_type: file.mime,
          sha256: 'x',
          file_size: file.data.length,
          id: first,
        },
      ];
    }
    return fail(notFound(first ?? ''));
  }

  /**
   * A control surface for tests in another process (e2e): `POST /__simulator/phones` {id, token, displayPhoneNumber,
   * verifiedName, businessAccountId}, `POST /__simulator/access` {token, businessAccountIds}, `POST
   * /__simulator/templates` {businessAccountId, templates}, `POST
   * /__simulator/media` {id, base64, mime}, `POST /__simulator/fail` {status, error, phoneNumberId?},
   * `GET /__simulator/sends?to=`, `POST /__simulator/deliver` {url, payload, secret} (answers our server's status).
   */
  async function control(
    req: http.IncomingMessage,
    pathname: string,
    query: URLSearchParams,
  ): Promise<[number, unknown]> {
    if (req.method === 'GET' && pathname === '/__simulator/sends') {
      const to = query.get('to');
      return [200, to ? sim.sendsTo(to) : sends];
    }
    const body = JSON.parse((await readRawBody(req)).toString('utf8') || '{}') as Record<string, unknown>;
    if (pathname === '/__simulator/phones') {
      phones.set(String(body.id), {
        token: String(body.token),
        displayPhoneNumber: String(body.displayPhoneNumber),
        verifiedName: String(body.verifiedName ?? 'Conversa'),
        businessAccountId: String(body.businessAccountId ?? '100000000000001'),
      });
      return [200, { ok: true }];
    }
    if (pathname === '/__simulator/access') {
      const ids = Array.isArray(body.businessAccountIds) ? body.businessAccountIds.map(String) : [];
      accountAccess.set(String(body.token), new Set(ids));
      return [200, { ok: true }];
    }
    if (pathname === '/__simulator/templates') {
      templates.set(String(body.businessAccountId), body.templates as never);
      return [200, { ok: true }];
    }
    if (pathname === '/__simulator/media') {
      media.set(String(body.id), {
        data: Buffer.from(String(body.base64), 'base64'),
        mime: String(body.mime),
        name: null,
        phoneNumberId: null,
      });
      return [200, { ok: true }];
    }
    if (pathname === '/__simulator/fail') {
      sim.failNextSend(
        { status: Number(body.status), error: body.error as SimulatedGraphError['error'] },
        (body.phoneNumberId as string | undefined) ?? null,
      );
      return [200, { ok: true }];
    }
    if (pathname === '/__simulator/deliver') {
      const response = await deliverWabaWebhook(String(body.url), body.payload as object, String(body.secret));
      return [200, { status: response.status, body: await response.text() }];
    }
    return [404, { ok: false }];
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const send = ([status, payload]: [number, unknown]) =>
      void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    const auth = req.headers.authorization;
    const token = auth?.startsWith('Bearer ') ? auth.slice(7) : null;
    if (url.pathname.startsWith('/__simulator/')) {
      void control(req, url.pathname, url.searchParams).then(send, () => send([400, { ok: false }]));
      return;
    }
    const download = /^\/lookaside\/(\d+)$/.exec(url.pathname);
    if (req.method === 'GET' && download) {
      requests.push({ method: 'GET', path: url.pathname, token });
      const file = media.get(download[1]!);
      if (!knownToken(token)) return void res.writeHead(401).end();
      if (!file) return void res.writeHead(404).end();
      return void res.writeHead(200, { 'content-type': file.mime, 'content-length': file.data.length }).end(file.data);
    }
    const versioned = /^\/v\d{1,2}\.\d{1,2}(\/.*)$/.exec(url.pathname);
    void readRawBody(req).then(async (body) => {
      if (!versioned) return send([404, { error: { message: 'Unknown path', code: 803 } }]);
      const path = versioned[1]!;
      requests.push({ method: req.method ?? 'GET', path, token });
      if (!knownToken(token))
        return send([INVALID_TOKEN.status, { error: { ...INVALID_TOKEN.error, fbtrace_id: 'Asim' } }]);
      send(await graph(req.method ?? 'GET', path, url.searchParams, token!, body, req.headers['content-type'] ?? ''));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  sim.url = baseUrl;
  return sim;
}

/** POSTs a webhook body to `url` signed with the app secret as Meta signs it (`X-Hub-Signature-256`). */
export async function deliverWabaWebhook(url: string, payload: object | string, secret: string): Promise<Response> {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaBody(body, secret) },
    body,
  });
}

/** What one webhook change carries (see wabaWebhook). */
export interface WabaWebhookValue {
  contacts?: { wa_id?: string; user_id?: string; profile?: { name?: string } }[];
  messages?: Record<string, unknown>[];
  statuses?: Record<string, unknown>[];
}

/** A Cloud API webhook body for one phone number, as Meta sends it (one entry, one `messages` change). */
export function wabaWebhook(
  phoneNumberId: string,
  value: WabaWebhookValue,
  options: { displayPhoneNumber?: string; businessAccountId?: string } = {},
): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: options.businessAccountId ?? '100000000000001',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: options.displayPhoneNumber ?? '5511999990000',
                phone_number_id: phoneNumberId,
              },
              ...value,
            },
          },
        ],
      },
    ],
  };
}
