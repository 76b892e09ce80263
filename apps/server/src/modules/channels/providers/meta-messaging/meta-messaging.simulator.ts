/**
 * A local stand-in for the parts of Meta's Graph API the Messenger and Instagram channels use (tests only): the Send
 * API (`POST /vX/{id}/messages`, JSON or multipart with `filedata`), the User Profile API (`GET /vX/{user-id}`), a
 * page token's own node (`GET /vX/me`), app subscriptions (`POST|DELETE /vX/{page-id}/subscribed_apps`), a user's
 * pages (`GET /vX/{user-id}/accounts`), a page's Instagram business account (`GET /vX/me|{page-id}?fields=
 * instagram_business_account`, to the page's token only) and attachment files (`GET /cdn/...`). Tokens arrive as a bearer header or an
 * `access_token` parameter, as Graph accepts both; an unknown token answers Graph's OAuth error 190. META_GRAPH_URL
 * points here; every call is recorded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFields } from '../../providers/simulator-body.js';

export interface GraphSimCall {
  method: string;
  /** The path without the version (`123/messages`, `me`). */
  path: string;
  version: string;
  token: string | null;
  query: Record<string, string>;
  /** JSON body, or the multipart fields (JSON fields parsed, files as `{ name, type, size, text }`). */
  body: Record<string, unknown>;
  /** What the simulator answered. */
  answer?: unknown;
}

export interface SimPage {
  id: string;
  name: string;
  instagram?: { id: string; username: string } | null;
}

export interface MetaMessagingSimulator {
  url: string;
  calls: GraphSimCall[];
  /** Page access token -> its page. */
  pages: Map<string, SimPage>;
  /** User access token -> the user id and the page tokens they manage (`/{user-id}/accounts`). */
  users: Map<string, { id: string; pageTokens: string[] }>;
  /** PSID / IGSID -> what the User Profile API answers. */
  profiles: Map<string, Record<string, unknown>>;
  /** Recipients whose 24-hour window is closed: a RESPONSE send to them is refused (code 10, subcode 2018278). */
  closedWindows: Set<string>;
  /** Page ids whose app subscription is active. */
  subscribed: Set<string>;
  /** Served under `${url}/cdn/<name>`. */
  files: Map<string, { data: Buffer; type: string }>;
  /** The next call whose `METHOD path` matches answers this Graph error with this HTTP status. */
  failNext(match: RegExp, status: number, error: { message: string; code: number; error_subcode?: number }): void;
  callsTo(method: string, path: RegExp): GraphSimCall[];
  close(): Promise<void>;
}

const oauthError = { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 };

export async function startMetaMessagingSimulator(): Promise<MetaMessagingSimulator> {
  const calls: GraphSimCall[] = [];
  const pages = new Map<string, SimPage>();
  const users = new Map<string, { id: string; pageTokens: string[] }>();
  const profiles = new Map<string, Record<string, unknown>>();
  const closedWindows = new Set<string>();
  const subscribed = new Set<string>();
  const files = new Map<string, { data: Buffer; type: string }>();
  const failures: { match: RegExp; status: number; error: Record<string, unknown> }[] = [];
  let nextMessage = 1;

  type Answer = [number, unknown];

  function messages(call: GraphSimCall, page: SimPage): Answer {
    const recipient = (call.body.recipient as { id?: string } | undefined)?.id;
    if (!recipient) return [400, { error: { message: '(#100) The parameter recipient is required', code: 100 } }];
    if (call.body.sender_action) return [200, { recipient_id: recipient }];
    if (call.body.messaging_type === 'RESPONSE' && closedWindows.has(recipient)) {
      const error = {
        message: '(#10) This message is sent outside of allowed window.',
        code: 10,
        error_subcode: 2018278,
      };
      return [400, { error }];
    }
    const senderId = call.path.split('/')[0];
    if (senderId !== 'me' && senderId !== page.id && senderId !== page.instagram?.id) {
      return [400, { error: { message: '(#100) Unsupported post request.', code: 100 } }];
    }
    return [200, { recipient_id: recipient, message_id: `m_sim_${nextMessage++}` }];
  }

  function answer(call: GraphSimCall): Answer {
    const token = call.token ?? '';
    const page = pages.get(token);
    const user = users.get(token);
    if (!page && !user) return [401, { error: oauthError }];
    const [node, edge] = call.path.split('/');
    if (edge === 'accounts' && user && call.method === 'GET') {
      if (node !== user.id && node !== 'me') return [400, { error: { message: '(#100) Unknown node', code: 100 } }];
      const data = user.pageTokens.flatMap((pageToken) => {
        const owned = pages.get(pageToken);
        if (!owned) return [];
        const instagram = owned.instagram ? { instagram_business_account: owned.instagram } : {};
        return [{ id: owned.id, name: owned.name, access_token: pageToken, ...instagram }];
      });
      return [200, { data }];
    }
    if (!page) return [400, { error: { message: '(#200) Requires a page access token', code: 200 } }];
    if (edge === 'messages' && call.method === 'POST') return messages(call, page);
    if (edge === 'subscribed_apps') {
      if (node !== page.id) return [400, { error: { message: '(#210) A page access token is required', code: 210 } }];
      if (call.method === 'POST') subscribed.add(page.id);
      if (call.method === 'DELETE') subscribed.delete(page.id);
      return [200, { success: true }];
    }
    if (call.method === 'GET' && (node === 'me' || node === page.id) && !edge) {
      // The page's Instagram business account is named only when asked for, and only to the page's own token.
      const fields = (call.query.fields ?? '').split(',');
      const instagram =
        fields.includes('instagram_business_account') && page.instagram
          ? { instagram_business_account: { id: page.instagram.id } }
          : {};
      return [200, { id: page.id, name: page.name, ...instagram }];
    }
    const profile = node ? profiles.get(node) : undefined;
    if (call.method === 'GET' && !edge && profile) return [200, { id: node, ...profile }];
    return [400, { error: { message: '(#100) Unsupported get request.', code: 100 } }];
  }

  /**
   * For tests in another process (e2e): `GET /__simulator/calls`, `POST /__simulator/pages {token, id, name,
   * instagram?: {id, username}}`,
   * `POST /__simulator/users {token, id, pageTokens}`, `POST /__simulator/profiles {id, profile}`.
   */
  function control(req: http.IncomingMessage, url: string, send: (status: number, payload: unknown) => void) {
    const { pathname } = new URL(url);
    if (req.method === 'GET' && pathname === '/__simulator/calls') return send(200, calls);
    if (req.method === 'POST' && pathname === '/__simulator/pages') {
      void readFields(req, url, { jsonFields: true }).then((body) => {
        const instagram = body.instagram as { id?: unknown; username?: unknown } | undefined;
        pages.set(String(body.token), {
          id: String(body.id),
          name: String(body.name),
          instagram: instagram?.id ? { id: String(instagram.id), username: String(instagram.username ?? '') } : null,
        });
        send(200, { ok: true });
      });
      return;
    }
    if (req.method === 'POST' && pathname === '/__simulator/users') {
      void readFields(req, url, { jsonFields: true }).then((body) => {
        const pageTokens = Array.isArray(body.pageTokens) ? body.pageTokens.map(String) : [];
        users.set(String(body.token), { id: String(body.id), pageTokens });
        send(200, { ok: true });
      });
      return;
    }
    if (req.method === 'POST' && pathname === '/__simulator/profiles') {
      void readFields(req, url, { jsonFields: true }).then((body) => {
        profiles.set(String(body.id), (body.profile ?? {}) as Record<string, unknown>);
        send(200, { ok: true });
      });
      return;
    }
    send(404, { ok: false });
  }

  const server = http.createServer((req, res) => {
    const url = `http://local${req.url ?? '/'}`;
    const send = (status: number, payload: unknown) =>
      void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    const { pathname, searchParams } = new URL(url);
    if (pathname.startsWith('/__simulator/')) return control(req, url, send);
    if (req.method === 'GET' && pathname.startsWith('/cdn/')) {
      const file = files.get(decodeURIComponent(pathname.slice('/cdn/'.length)));
      if (!file) return void res.writeHead(404).end();
      return void res.writeHead(200, { 'content-type': file.type }).end(file.data);
    }
    const match = /^\/v(\d{1,3}\.\d{1,3})\/(.+)$/.exec(pathname);
    if (!match) return send(404, { error: { message: 'Unknown path', code: 803 } });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
    const query = Object.fromEntries(searchParams.entries());
    void readFields(req, url, { jsonFields: true })
      .then((body) => {
        const call: GraphSimCall = {
          method: req.method ?? 'GET',
          path: match[2]!,
          version: match[1]!,
          token: bearer ?? query.access_token ?? null,
          query,
          body,
        };
        calls.push(call);
        const failure = failures.findIndex((f) => f.match.test(`${call.method} ${call.path}`));
        if (failure >= 0) {
          const { status, error } = failures.splice(failure, 1)[0]!;
          return send(status, { error });
        }
        const [status, payload] = answer(call);
        call.answer = payload;
        send(status, payload);
      })
      .catch(() => send(400, { error: { message: 'Bad body', code: 100 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    pages,
    users,
    profiles,
    closedWindows,
    subscribed,
    files,
    failNext: (match, status, error) => void failures.push({ match, status, error }),
    callsTo: (method, path) => calls.filter((call) => call.method === method && path.test(call.path)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
