/**
 * A local stand-in for a Wuzapi gateway (tests only): the REST calls the adapter makes, answered in Wuzapi's
 * `{code, data, success}` envelope with the `Token` header as the user, every call recorded; and webhook requests
 * built as Wuzapi builds them (form `jsonData=...&token=...` with Go's url.Values encoding, or JSON) and signed
 * with the user's HMAC key in `x-hmac-signature`. No network in tests: channels point `remotePath` here.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerLive, newLiveState, type SimHistoryRow, type WuzapiLiveState } from './wuzapi.simulator.live.js';

export interface WuzapiCall {
  token: string;
  method: string;
  path: string;
  /** The query string's parameters. */
  query: Record<string, string>;
  body: Record<string, unknown>;
}

export interface WuzapiUser {
  connected: boolean;
  loggedIn: boolean;
  jid: string;
  qrcode: string;
  webhook: string;
  events: string[];
  hmacKey: string | null;
  /** Groups, phone book, LIDs and history setting the live endpoints answer from (wuzapi.simulator.live.ts). */
  live: WuzapiLiveState;
}

export interface WuzapiWebhookRequest {
  url: string;
  headers: Record<string, string>;
  payload: string;
}

export interface WuzapiSimulator {
  url: string;
  calls: WuzapiCall[];
  users: Map<string, WuzapiUser>;
  addUser(token: string): WuzapiUser;
  /** Numbers WhatsApp knows (as /user/check answers); empty: every number. */
  registered: Set<string>;
  /** Messages Wuzapi stored (every user's: the history index lists them all), as /chat/history answers them. */
  history: SimHistoryRow[];
  /** Downloadable media by DirectPath. */
  media: Map<string, { data: Buffer; mime: string }>;
  /** The next call of `path` answers this status and error text. */
  failNext(path: string, status: number, error: string): void;
  callsOf(path: string): WuzapiCall[];
  /** The phone scanned the QR: logged in as `jid`. */
  login(token: string, jid: string): void;
  /** A webhook as Wuzapi would post it for this user (signed when the user has an HMAC key). */
  webhook(token: string, event: Record<string, unknown>, format?: 'form' | 'json'): WuzapiWebhookRequest;
  close(): Promise<void>;
}

/** Go's url.QueryEscape: unreserved `-_.~` stay, space is `+`, everything else is %XX (upper case). */
export const goQueryEscape = (value: string): string =>
  encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

/** Go's url.Values.Encode: keys sorted. */
export const goFormEncode = (values: Record<string, string>): string =>
  Object.keys(values)
    .sort()
    .map((key) => `${goQueryEscape(key)}=${goQueryEscape(values[key]!)}`)
    .join('&');

const QR = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk';

export async function startWuzapiSimulator(): Promise<WuzapiSimulator> {
  const calls: WuzapiCall[] = [];
  const users = new Map<string, WuzapiUser>();
  const media = new Map<string, { data: Buffer; mime: string }>();
  const registered = new Set<string>();
  const failures = new Map<string, { status: number; error: string }>();
  const history: SimHistoryRow[] = [];
  let seq = 0;
  let userIds = 0;

  const addUser = (token: string): WuzapiUser => {
    const user: WuzapiUser = {
      connected: false,
      loggedIn: false,
      jid: '',
      qrcode: '',
      webhook: '',
      events: [],
      hmacKey: null,
      live: newLiveState(`user${(userIds += 1)}`),
    };
    users.set(token, user);
    return user;
  };

  type Answer = [number, unknown] | [number, null, string];
  const sent = (body: Record<string, unknown>): Answer => [
    200,
    {
      Details: 'Sent',
      Timestamp: 1_763_700_000 + (seq += 1),
      Id: typeof body.Id === 'string' && body.Id ? body.Id : `3EB0SIM${seq}`,
    },
  ];
  const str = (value: unknown) => (typeof value === 'string' ? value : '');

  function answer(
    user: WuzapiUser,
    method: string,
    path: string,
    query: Record<string, string>,
    body: Record<string, unknown>,
  ): Answer {
    if (
      path.startsWith('/group/') ||
      path.startsWith('/user/lid/') ||
      path === '/user/contacts' ||
      path === '/chat/history'
    ) {
      if (!user.connected) return [500, null, 'no session'];
    }
    const live = answerLive(user.live, history, method, path, query);
    if (live) return live;
    const route = `${method} ${path}`;
    switch (route) {
      case 'POST /session/hmac/config':
        if (str(body.hmac_key).length < 32) return [400, null, 'HMAC key must be at least 32 characters long'];
        user.hmacKey = str(body.hmac_key);
        return [200, { Details: 'HMAC configuration saved successfully' }];
      case 'POST /webhook':
        user.webhook = str(body.webhookurl ?? body.webhookURL);
        user.events = Array.isArray(body.events) ? (body.events as string[]) : user.events;
        return [200, { webhook: user.webhook }];
      case 'POST /session/connect':
        if (user.connected) return [500, null, 'already connected'];
        user.connected = true;
        user.events = Array.isArray(body.Subscribe) ? (body.Subscribe as string[]) : user.events;
        if (!user.loggedIn) user.qrcode = QR;
        return [200, { details: 'Connected!', events: user.events.join(','), jid: user.jid, webhook: user.webhook }];
      case 'POST /session/disconnect':
        if (!user.connected) return [500, null, 'cannot disconnect because it is not logged in'];
        user.connected = false;
        return [200, { Details: 'Disconnected' }];
      case 'POST /session/logout':
        if (!user.connected) return [500, null, 'no session'];
        if (!user.loggedIn) return [500, null, 'could not logout as it was not logged in'];
        Object.assign(user, { connected: false, loggedIn: false, jid: '' });
        return [200, { Details: 'Logged out' }];
      case 'GET /session/status':
        return [
          200,
          { id: user.live.id, connected: user.connected, loggedIn: user.loggedIn, jid: user.jid, qrcode: user.qrcode },
        ];
      case 'GET /session/qr':
        if (!user.connected) return [500, null, 'not connected'];
        if (user.loggedIn) return [500, null, 'already logged in'];
        return [200, { QRCode: user.qrcode }];
      case 'POST /user/check': {
        const phones = Array.isArray(body.Phone) ? (body.Phone as unknown[]).map(String) : [];
        if (phones.length === 0) return [400, null, 'missing Phone in Payload'];
        // Numbers WhatsApp knows: the ones registered with the simulator, or any number when none is registered.
        const known = (phone: string) => registered.size === 0 || registered.has(phone);
        const Users = phones.map((phone) => ({
          IsInWhatsapp: known(phone),
          JID: known(phone) ? `${phone}@s.whatsapp.net` : '',
          Query: phone,
          VerifiedName: '',
        }));
        return [200, { Users }];
      }
      case 'POST /session/pairphone':
        if (!str(body.Phone)) return [400, null, 'missing Phone in Payload'];
        return [200, { LinkingCode: 'K7QF-2MXD' }];
    }
    if (method === 'POST' && path.startsWith('/chat/')) {
      if (!user.loggedIn) return [500, null, 'no session'];
      if (!path.startsWith('/chat/download') && !str(body.Phone)) return [400, null, 'missing Phone in Payload'];
      const prefix: Record<string, [string, RegExp]> = {
        '/chat/send/image': ['Image', /^data:image\//],
        '/chat/send/video': ['Video', /^data:video\//],
        '/chat/send/audio': ['Audio', /^data:audio\//],
        '/chat/send/document': ['Document', /^data:application\/octet-stream;base64,/],
        '/chat/send/sticker': ['Sticker', /^data:(image\/webp|video\/mp4);base64,/],
      };
      const check = prefix[path];
      if (check && !check[1].test(str(body[check[0]]))) return [400, null, `bad ${check[0]} data`];
      if (path === '/chat/send/document' && !str(body.FileName)) return [400, null, 'missing FileName in Payload'];
      const context = body.ContextInfo as { StanzaId?: string; Participant?: string } | undefined;
      if (context?.StanzaId && !context.Participant) return [400, null, 'missing Participant in ContextInfo'];
      if (path === '/chat/send/text' && !str(body.Body)) return [400, null, 'missing Body in Payload'];
      if (path.startsWith('/chat/send/') || path === '/chat/react') return sent(path === '/chat/react' ? {} : body);
      if (path === '/chat/delete') return [200, { Details: 'Deleted', Timestamp: 1_763_700_000, Id: str(body.Id) }];
      if (path.startsWith('/chat/download')) {
        const file = media.get(str(body.DirectPath));
        if (!file || !str(body.MediaKey)) return [500, null, 'failed to download media'];
        return [
          200,
          { Mimetype: str(body.Mimetype), Data: `data:${file.mime};base64,${file.data.toString('base64')}` },
        ];
      }
    }
    return [404, null, 'not found'];
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const send = (status: number, payload: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      const token = String(req.headers.token ?? '');
      const url = new URL(req.url ?? '/', 'http://wuzapi.local');
      const path = decodeURIComponent(url.pathname);
      const query = Object.fromEntries(url.searchParams);
      const method = req.method ?? 'GET';
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>) : {};
      } catch {
        return send(400, { code: 400, error: 'could not decode Payload', success: false });
      }
      calls.push({ token, method, path, query, body });
      const user = users.get(token);
      if (!user) return send(401, { code: 401, error: 'unauthorized', success: false });
      const failure = failures.get(path);
      if (failure) {
        failures.delete(path);
        return send(failure.status, { code: failure.status, error: failure.error, success: false });
      }
      const [status, data, error] = answer(user, method, path, query, body);
      if (error !== undefined) return send(status, { code: status, error, success: false });
      return send(status, { code: status, data, success: true });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    users,
    addUser,
    media,
    history,
    registered,
    failNext: (path, status, error) => void failures.set(path, { status, error }),
    callsOf: (path) => calls.filter((call) => call.path === path),
    login(token, jid) {
      const user = users.get(token)!;
      Object.assign(user, { connected: true, loggedIn: true, jid, qrcode: '' });
    },
    webhook(token, event, format = 'form') {
      const user = users.get(token)!;
      const payload =
        format === 'form'
          ? goFormEncode({ jsonData: JSON.stringify(event), token })
          : JSON.stringify({ ...event, token, userID: user.live.id });
      const headers: Record<string, string> = {
        'content-type': format === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
      };
      if (user.hmacKey) {
        headers['x-hmac-signature'] = crypto.createHmac('sha256', user.hmacKey).update(payload).digest('hex');
      }
      return { url: user.webhook, headers, payload };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
