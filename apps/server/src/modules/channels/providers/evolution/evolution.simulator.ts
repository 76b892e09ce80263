/**
 * A local stand-in for an Evolution API v2 server (tests only): the instance, webhook, message and chat routes the
 * adapter calls, with Evolution's paths, `apikey` header, answer shapes and error envelope
 * (`{ status, error, response: { message } }`). It records every call, keeps each instance's state, webhook config
 * and messages (for findMessages and getBase64FromMediaMessage), its groups and contacts, the numbers WhatsApp knows
 * (the live-operation routes: evolution.simulator.live.ts), and builds the webhook calls Evolution would make
 * (the configured URL and headers, the `{ event, instance, data, ... }` envelope) for tests to deliver.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerLiveRoute, type SimGroup, type SimStoredMessage } from './evolution.simulator.live.js';

export type { SimGroup, SimParticipant, SimStoredMessage } from './evolution.simulator.live.js';

export interface EvolutionSimCall {
  method: string;
  /** Route without the instance: `message/sendText`, `instance/create`, ... */
  route: string;
  instance: string | null;
  apikey: string | null;
  body: Record<string, unknown>;
  /** The query string as sent (`?groupJid=...`), '' without one. */
  query: string;
}

export interface SimInstance {
  name: string;
  /** The instance's own token (`token` of instance/create, else one made up), Evolution's `hash`. */
  token?: string;
  state: 'close' | 'connecting' | 'open';
  qrCount: number;
  ownerJid: string | null;
  webhook: {
    enabled: boolean;
    url: string;
    headers: Record<string, string>;
    events: string[];
    /** "Webhook by events": each event posts to `<url>/<event-in-kebab-case>`. */
    byEvents?: boolean;
  } | null;
  /** Messages by id: what findMessages and getBase64FromMediaMessage read. */
  messages: Map<string, SimStoredMessage>;
  /** Groups by JID (`...@g.us`), with their members. */
  groups: Map<string, SimGroup>;
  /** The contacts Evolution stored for the instance (people, groups, LIDs). */
  contacts: { remoteJid: string; pushName: string | null; profilePicUrl?: string | null }[];
}

export interface EvolutionSimulator {
  url: string;
  apiKey: string;
  calls: EvolutionSimCall[];
  instances: Map<string, SimInstance>;
  /** The user JIDs WhatsApp knows (chat/whatsappNumbers answers them as existing). */
  whatsappJids: Set<string>;
  /** Stores a message record (prepareMessage output, with key and messageTimestamp) as Evolution's database would. */
  storeMessage(instance: string, record: Record<string, unknown> & { key: Record<string, unknown> }): void;
  callsOf(route: string): EvolutionSimCall[];
  /** The next call of the route answers this status and message. */
  failNext(route: string, status: number, message: string): void;
  /** The webhook call Evolution would make for this event: path (of the configured URL), headers and body. */
  webhook(
    instance: string,
    event: string,
    data: unknown,
  ): { path: string; headers: Record<string, string>; payload: Record<string, unknown> };
  /** Marks the instance connected (the phone scanned the QR) and answers its connection.update webhook. */
  open(instance: string, wuid: string): ReturnType<EvolutionSimulator['webhook']>;
  close(): Promise<void>;
}

const ROUTES_WITH_INSTANCE = /^\/(instance|webhook|message|chat|group)\/(\w+)\/([^/?]+)$/;

export interface EvolutionSimOptions {
  /**
   * AUTHENTICATION_EXPOSE_IN_FETCH_INSTANCES: fetchInstances lists each instance's token, and every webhook carries
   * it as `apikey` (null otherwise, Evolution's default).
   */
  exposeTokens?: boolean;
}

export async function startEvolutionSimulator(
  apiKey = 'sim-global-api-key',
  options: EvolutionSimOptions = {},
): Promise<EvolutionSimulator> {
  const calls: EvolutionSimCall[] = [];
  const instances = new Map<string, SimInstance>();
  const failures = new Map<string, { status: number; message: string }>();
  const whatsappJids = new Set<string>();
  let nextId = 1;

  const qrcode = (instance: SimInstance) => {
    instance.qrCount += 1;
    const code = `2@sim-qr-${instance.name}-${instance.qrCount}`;
    return {
      pairingCode: null,
      code,
      base64: `data:image/png;base64,${Buffer.from(code).toString('base64')}`,
      count: instance.qrCount,
    };
  };

  const errorBody = (status: number, message: string) => ({
    status,
    error: http.STATUS_CODES[status] ?? 'Error',
    response: { message: [message] },
  });

  const mentionJids = (numbers: unknown[]) => numbers.map((n) => `${String(n).replace(/\D/g, '')}@s.whatsapp.net`);

  function sent(instance: SimInstance, body: Record<string, unknown>, messageType: string, message: object) {
    const number = String(body.number ?? '');
    const remoteJid = number.includes('@') ? number : `${number.replace(/\D/g, '')}@s.whatsapp.net`;
    const key = {
      remoteJid,
      fromMe: true,
      id: `3EB0${crypto.randomBytes(8).toString('hex').toUpperCase()}${nextId++}`,
    };
    const record = {
      key,
      pushName: '',
      status: 'PENDING',
      message,
      contextInfo: null,
      messageType,
      messageTimestamp: 1_763_800_000,
      instanceId: `sim-${instance.name}`,
      source: 'unknown',
      ...(Array.isArray(body.mentioned) ? { contextInfo: { mentionedJid: mentionJids(body.mentioned) } } : {}),
    };
    instance.messages.set(key.id, { key, record });
    return record;
  }

  function answer(call: EvolutionSimCall, query: URLSearchParams): [number, unknown] {
    const { route, body } = call;
    if (route === 'instance/create') {
      const name = String(body.instanceName ?? '');
      if (!name) return [400, errorBody(400, '"instanceName" not provided.')];
      if (instances.has(name)) return [403, errorBody(403, `This name "${name}" is already in use.`)];
      const token = typeof body.token === 'string' && body.token ? body.token : crypto.randomUUID().toUpperCase();
      const instance: SimInstance = {
        name,
        token,
        state: 'connecting',
        qrCount: 0,
        ownerJid: null,
        webhook: null,
        messages: new Map(),
        groups: new Map(),
        contacts: [],
      };
      instances.set(name, instance);
      return [
        201,
        {
          instance: {
            instanceName: name,
            instanceId: `sim-${name}`,
            integration: body.integration,
            status: 'connecting',
          },
          hash: token,
          settings: {},
          qrcode: body.qrcode ? qrcode(instance) : undefined,
        },
      ];
    }
    if (route === 'instance/fetchInstances') {
      const name = query.get('instanceName');
      const list = [...instances.values()].filter((i) => !name || i.name === name);
      if (name && list.length === 0) return [404, errorBody(404, `Instance "${name}" not found`)];
      return [
        200,
        list.map((i) => ({
          id: `sim-${i.name}`,
          name: i.name,
          connectionStatus: i.state,
          ownerJid: i.ownerJid,
          profileName: 'Loja',
          profilePicUrl: null,
          ...(options.exposeTokens ? { token: i.token } : {}),
        })),
      ];
    }
    const instance = call.instance ? instances.get(call.instance) : undefined;
    if (!instance) return [404, errorBody(404, `The "${call.instance}" instance does not exist`)];
    switch (route) {
      case 'instance/connectionState':
        return [200, { instance: { instanceName: instance.name, state: instance.state } }];
      case 'instance/connect': {
        if (instance.state === 'open') return [200, { instance: { instanceName: instance.name, state: 'open' } }];
        instance.state = 'connecting';
        // With `number`, Evolution also answers the pairing code for that phone.
        const number = query.get('number');
        return [200, { ...qrcode(instance), pairingCode: number ? `PAIR${number.slice(-4)}` : null }];
      }
      case 'instance/logout':
        if (instance.state === 'close')
          return [400, errorBody(400, `The "${instance.name}" instance is not connected`)];
        instance.state = 'close';
        return [200, { status: 'SUCCESS', error: false, response: { message: 'Instance logged out' } }];
      case 'webhook/set': {
        const webhook = body.webhook as SimInstance['webhook'];
        if (!webhook?.url) return [400, errorBody(400, 'webhook.url is required')];
        instance.webhook = {
          enabled: Boolean(webhook.enabled),
          url: webhook.url,
          headers: webhook.headers ?? {},
          events: webhook.events ?? [],
          byEvents: Boolean(webhook.byEvents),
        };
        return [201, { id: 'sim-webhook', ...instance.webhook, webhookByEvents: instance.webhook.byEvents }];
      }
      case 'chat/getBase64FromMediaMessage': {
        const id = ((body.message as { key?: { id?: string } } | undefined)?.key ?? {}).id ?? '';
        const media = instance.messages.get(id)?.media;
        if (!media) return [400, errorBody(400, 'Error: Message not found')];
        return [
          201,
          {
            mediaType: 'imageMessage',
            fileName: media.fileName,
            caption: null,
            size: { fileLength: media.data.length },
            mimetype: media.mimetype,
            base64: media.data.toString('base64'),
            buffer: null,
          },
        ];
      }
    }
    const live = answerLiveRoute(route, body, query, instance, instance.state === 'open', whatsappJids, errorBody);
    if (live) return live;
    if (instance.state !== 'open') return [400, errorBody(400, 'Connection Closed')];
    switch (route) {
      case 'message/sendText':
        return [201, sent(instance, body, 'conversation', { conversation: body.text })];
      case 'message/sendMedia':
        return [
          201,
          sent(instance, body, `${String(body.mediatype)}Message`, {
            [`${String(body.mediatype)}Message`]: { caption: body.caption, mimetype: body.mimetype },
          }),
        ];
      case 'message/sendWhatsAppAudio':
        return [201, sent(instance, body, 'audioMessage', { audioMessage: { ptt: true } })];
      case 'message/sendSticker':
        return [201, sent(instance, body, 'stickerMessage', { stickerMessage: {} })];
      case 'message/sendReaction': {
        const key = body.key as Record<string, unknown>;
        return [
          201,
          sent(instance, { number: key.remoteJid }, 'reactionMessage', {
            reactionMessage: { key, text: body.reaction },
          }),
        ];
      }
      case 'chat/updateMessage':
        return [
          201,
          sent(instance, body, 'protocolMessage', { protocolMessage: { key: body.key, type: 'MESSAGE_EDIT' } }),
        ];
      case 'chat/deleteMessageForEveryone':
        return [
          201,
          sent(instance, { number: body.remoteJid }, 'protocolMessage', {
            protocolMessage: { key: body, type: 'REVOKE' },
          }),
        ];
    }
    return [404, errorBody(404, `Cannot ${call.method} /${route}`)];
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://local');
      const send = (status: number, payload: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      const match = ROUTES_WITH_INSTANCE.exec(url.pathname);
      const plain = /^\/instance\/(create|fetchInstances)$/.exec(url.pathname);
      if (!match && !plain) return send(404, errorBody(404, 'Not Found'));
      const raw = Buffer.concat(chunks).toString();
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        return send(400, errorBody(400, 'invalid JSON'));
      }
      const route = match ? `${match[1]}/${match[2]}` : `instance/${plain![1]}`;
      const apikey = typeof req.headers.apikey === 'string' ? req.headers.apikey : null;
      const call: EvolutionSimCall = {
        method: req.method ?? 'GET',
        route,
        instance: match ? decodeURIComponent(match[3]!) : null,
        apikey,
        body,
        query: url.search,
      };
      calls.push(call);
      if (apikey !== apiKey) return send(401, errorBody(401, 'Unauthorized'));
      const failure = failures.get(route);
      if (failure) {
        failures.delete(route);
        return send(failure.status, errorBody(failure.status, failure.message));
      }
      const [status, payload] = answer(call, url.searchParams);
      send(status, payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const webhook: EvolutionSimulator['webhook'] = (name, event, data) => {
    const instance = instances.get(name);
    if (!instance?.webhook?.enabled) throw new Error(`simulator: no webhook set for ${name}`);
    // Evolution's suffix with webhook_by_events: the event's name in kebab case (messages.upsert -> messages-upsert).
    const suffix = instance.webhook.byEvents ? `/${event.replace(/[._]/g, '-').toLowerCase()}` : '';
    const target = new URL(`${instance.webhook.url}${suffix}`);
    return {
      path: target.pathname,
      headers: { 'content-type': 'application/json', ...instance.webhook.headers },
      payload: {
        event,
        instance: name,
        data,
        destination: instance.webhook.url,
        date_time: '2025-11-22T10:00:00.000Z',
        sender: instance.ownerJid,
        server_url: `http://127.0.0.1:${port}`,
        apikey: options.exposeTokens ? (instance.token ?? null) : null,
      },
    };
  };

  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    calls,
    instances,
    whatsappJids,
    storeMessage(name, record) {
      const instance = instances.get(name);
      if (!instance) throw new Error(`simulator: no instance ${name}`);
      instance.messages.set(String(record.key.id), { key: record.key, record });
    },
    callsOf: (route) => calls.filter((call) => call.route === route),
    failNext: (route, status, message) => void failures.set(route, { status, message }),
    webhook,
    open(name, wuid) {
      const instance = instances.get(name);
      if (!instance) throw new Error(`simulator: no instance ${name}`);
      instance.state = 'open';
      instance.ownerJid = wuid;
      return webhook(name, 'connection.update', {
        instance: name,
        wuid,
        profileName: 'Loja',
        profilePictureUrl: 'https://pps.whatsapp.net/v/loja.jpg',
        state: 'open',
        statusReason: 200,
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
