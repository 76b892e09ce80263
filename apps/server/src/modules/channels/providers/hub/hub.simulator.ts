/**
 * A local stand-in for the NotificaMe hub's REST API (tests only), on 127.0.0.1 and a random port: `GET /channels`,
 * `POST /channels/{channel}/messages` (recorded), `POST /subscriptions` and `DELETE /subscriptions/{id}`,
 * `GET /templates/{channel}`, `POST /channels/whatsapp/media`, and `GET /files/{name}` (the CDN links of inbound
 * files). Every API call checks `X-API-Token` against the accounts it knows and answers the hub's error shape
 * (`{ message }`). It builds the webhook calls the hub makes (MESSAGE, MESSAGE_STATUS) to the subscribed URL and can
 * deliver them.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HubSimChannel {
  id: string;
  name: string;
  channel: string;
}

export interface HubSimCall {
  method: string;
  path: string;
  token: string | null;
  body: Record<string, unknown>;
}

export interface HubSimSubscription {
  id: string;
  token: string;
  channel: string;
  url: string;
}

export interface HubSimulator {
  url: string;
  calls: HubSimCall[];
  /** Accounts by API token, each with its channels. */
  accounts: Map<string, HubSimChannel[]>;
  subscriptions: Map<string, HubSimSubscription>;
  /** Templates by hub channel id (Meta's shape). */
  templates: Map<string, Record<string, unknown>[]>;
  /** Files served under /files/{name} (and through the WhatsApp media call by their URL). */
  files: Map<string, { data: Buffer; type: string }>;
  /** The bodies the hub accepted on `POST /channels/{channel}/messages`, with the id it answered. */
  sent: { channel: string; id: string; body: Record<string, unknown> }[];
  callsOf(method: string, path: string): HubSimCall[];
  /** The next call whose path starts with `pathPrefix` answers this status and message. */
  failNext(pathPrefix: string, status: number, message: string): void;
  fileUrl(name: string): string;
  /** A MESSAGE webhook body from a visitor to a hub channel. */
  message(
    channelId: string,
    from: string,
    contents: Record<string, unknown>[],
    extra?: { id?: string; visitor?: Record<string, unknown>; direction?: 'IN' | 'OUT'; timestamp?: string },
  ): Record<string, unknown>;
  /**
   * A MESSAGE_STATUS webhook body for a message the hub answered on a send. `providerMessageId`: the network's id of
   * the message; `eventId`: the id the status comes under instead of the message's (the hub's later statuses do).
   */
  status(
    channelId: string,
    messageId: string,
    code: string,
    description?: string,
    extra?: { providerMessageId?: string; eventId?: string },
  ): Record<string, unknown>;
  /** Where the hub posts a channel's webhooks (the subscribed URL) and the body, for tests that inject it. */
  webhookOf(
    channelId: string,
    body: Record<string, unknown>,
  ): { url: string; path: string; body: Record<string, unknown> };
  /** Posts a webhook to the subscribed URL (a listening server), as the hub would. */
  deliver(channelId: string, body: Record<string, unknown>): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

const HUB_TIME = '2025-11-22 01:30:05 pm';

export async function startHubSimulator(): Promise<HubSimulator> {
  const calls: HubSimCall[] = [];
  const accounts = new Map<string, HubSimChannel[]>();
  const subscriptions = new Map<string, HubSimSubscription>();
  const templates = new Map<string, Record<string, unknown>[]>();
  const files = new Map<string, { data: Buffer; type: string }>();
  const sent: HubSimulator['sent'] = [];
  const failures = new Map<string, { status: number; message: string }>();
  let base = '';

  const owns = (token: string, channelId: unknown) =>
    (accounts.get(token) ?? []).find((channel) => channel.id === channelId);

  function fileByUrl(url: unknown): { data: Buffer; type: string } | undefined {
    if (typeof url !== 'string' || !url.startsWith(`${base}/files/`)) return undefined;
    return files.get(decodeURIComponent(url.slice(`${base}/files/`.length)));
  }

  function answer(call: HubSimCall, res: http.ServerResponse): [number, unknown] | null {
    const token = call.token ?? '';
    const { method, path, body } = call;
    if (method === 'GET' && path === '/channels') return [200, accounts.get(token)];
    const send = /^\/channels\/([a-z_]+)\/messages$/.exec(path);
    if (method === 'POST' && send) {
      const channel = owns(token, body.from);
      if (!channel || channel.channel !== send[1]) return [400, { message: 'Channel not found' }];
      if (typeof body.to !== 'string' || !body.to || !Array.isArray(body.contents) || body.contents.length === 0) {
        return [400, { message: 'Invalid message' }];
      }
      const id = crypto.randomUUID();
      sent.push({ channel: send[1]!, id, body });
      return [200, { id, from: body.from, to: body.to, direction: 'OUT', channel: send[1], contents: body.contents }];
    }
    if (method === 'POST' && path === '/channels/whatsapp/media') {
      const content = (Array.isArray(body.contents) ? body.contents[0] : undefined) as
        Record<string, unknown> | undefined;
      const file = owns(token, body.from) ? fileByUrl(content?.fileUrl) : undefined;
      if (!file) return [404, { message: 'Media not found' }];
      res.writeHead(200, { 'content-type': file.type }).end(file.data);
      return null;
    }
    if (method === 'POST' && path === '/subscriptions') {
      const criteria = body.criteria as { channel?: unknown } | undefined;
      const webhook = body.webhook as { url?: unknown } | undefined;
      if (!owns(token, criteria?.channel)) return [400, { message: 'Channel not found' }];
      if (typeof webhook?.url !== 'string' || !/^https?:\/\//.test(webhook.url)) {
        return [400, { message: 'Invalid webhook url' }];
      }
      const id = crypto.randomUUID();
      subscriptions.set(id, { id, token, channel: String(criteria!.channel), url: webhook.url });
      return [200, { id, criteria, webhook, status: 'ACTIVE' }];
    }
    const unsubscribe = /^\/subscriptions\/([^/]+)$/.exec(path);
    if (method === 'DELETE' && unsubscribe) {
      const found = subscriptions.get(decodeURIComponent(unsubscribe[1]!));
      if (!found || found.token !== token) return [404, { message: 'Subscription not found' }];
      subscriptions.delete(found.id);
      return [200, { id: found.id }];
    }
    const template = /^\/templates\/([^/]+)$/.exec(path);
    if (method === 'GET' && template) {
      const channelId = decodeURIComponent(template[1]!);
      if (!owns(token, channelId)) return [400, { message: 'Channel not found' }];
      return [200, { data: templates.get(channelId) ?? [] }];
    }
    return [404, { message: `Cannot ${method} ${path}` }];
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://local');
      const json = (status: number, payload: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
        const file = files.get(decodeURIComponent(url.pathname.slice('/files/'.length)));
        if (!file) return json(404, { message: 'Not found' });
        return res.writeHead(200, { 'content-type': file.type }).end(file.data);
      }
      let body: Record<string, unknown> = {};
      try {
        const raw = Buffer.concat(chunks).toString();
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        return json(400, { message: 'Invalid JSON' });
      }
      const header = req.headers['x-api-token'];
      const call: HubSimCall = {
        method: req.method ?? 'GET',
        path: url.pathname,
        token: typeof header === 'string' ? header : null,
        body,
      };
      calls.push(call);
      if (!call.token || !accounts.has(call.token)) return json(401, { message: 'Invalid API token' });
      const failure = [...failures.keys()].find((prefix) => call.path.startsWith(prefix));
      if (failure) {
        const { status, message } = failures.get(failure)!;
        failures.delete(failure);
        return json(status, { message });
      }
      const result = answer(call, res);
      if (result) json(result[0], result[1]);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function subscriptionOf(channelId: string): HubSimSubscription {
    const found = [...subscriptions.values()].find((s) => s.channel === channelId);
    if (!found) throw new Error(`hub simulator: no subscription for ${channelId}`);
    return found;
  }

  const webhookOf: HubSimulator['webhookOf'] = (channelId, body) => {
    const { url } = subscriptionOf(channelId);
    const parsed = new URL(url);
    return { url, path: `${parsed.pathname}${parsed.search}`, body };
  };

  return {
    url: base,
    calls,
    accounts,
    subscriptions,
    templates,
    files,
    sent,
    callsOf: (method, path) => calls.filter((call) => call.method === method && call.path === path),
    failNext: (prefix, status, message) => void failures.set(prefix, { status, message }),
    fileUrl: (name) => `${base}/files/${encodeURIComponent(name)}`,
    message(channelId, from, contents, extra = {}) {
      const channel = [...accounts.values()].flat().find((c) => c.id === channelId)?.channel ?? 'whatsapp';
      const id = extra.id ?? crypto.randomUUID();
      const direction = extra.direction ?? 'IN';
      const subscriptionId = [...subscriptions.values()].find((s) => s.channel === channelId)?.id;
      const visitor = extra.visitor ?? { name: 'Maria Souza', firstName: 'Maria', lastName: 'Souza', picture: '' };
      const timestamp = extra.timestamp ?? HUB_TIME;
      return {
        type: 'MESSAGE',
        id,
        timestamp,
        subscriptionId,
        channel,
        direction,
        message: { id, from, to: channelId, direction, channel, visitor, contents, timestamp },
      };
    },
    status(channelId, messageId, code, description, extra = {}) {
      const channel = [...accounts.values()].flat().find((c) => c.id === channelId)?.channel ?? 'whatsapp';
      return {
        type: 'MESSAGE_STATUS',
        timestamp: HUB_TIME,
        subscriptionId: [...subscriptions.values()].find((s) => s.channel === channelId)?.id,
        channel,
        messageId: extra.eventId ?? messageId,
        contentIndex: 0,
        messageStatus: {
          timestamp: HUB_TIME,
          code,
          description: description ?? `The message is ${code}`,
          ...(extra.providerMessageId ? { providerMessageId: extra.providerMessageId } : {}),
        },
      };
    },
    webhookOf,
    async deliver(channelId, body) {
      const { url } = webhookOf(channelId, body);
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.text() };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
