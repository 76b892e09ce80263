/**
 * A local stand-in for WhatsApp as the Baileys socket sees it (tests only). The fake socket
 * (baileys.fake-socket.ts, selected by BAILEYS_SOCKET_MODULE) opens a connection here over HTTP: an SSE stream carries
 * the library's own events (`connection.update`, `creds.update`, `messages.upsert`, ...) to it, and every socket method
 * the driver calls is a POST recorded here. Tests push events per channel, read the recorded calls, answer
 * `onWhatsApp`, serve media encrypted the way WhatsApp does (baileys' own `encryptedStream`), and see which creds each
 * socket was opened with.
 *
 * Behaviour by default, per channel: a socket opened without a logged-in identity (`creds.me`) gets a QR
 * (`connection.update {qr}`); `scan()` logs in like the phone does (`creds.update` with `me`, then a close with
 * `restartRequired`, 515); a socket opened with `creds.me` is resumed (`connection.update {connection:'open'}`), so a
 * reopen with stored auth shows no QR. `manual: true` turns both automatic answers off.
 *
 * Every in-process method has an HTTP twin under `/__simulator/` for tests in another process (reliability, e2e).
 * Payloads cross HTTP as JSON with baileys' BufferJSON (Buffers survive).
 *
 * Long file: one protocol simulator, test-only. A third of it is the BaileysSimulator interface the tests read; the
 * rest is one closure over one in-memory WhatsApp (sockets, their SSE streams and backlogs, recorded calls, numbers,
 * LIDs, groups, pictures, media), where each socket method's answer and each control route sit beside the in-process
 * method they mirror. Split into files, every part would take that whole state as a parameter and the twins would
 * drift apart.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import {
  BufferJSON,
  DisconnectReason,
  encryptedStream,
  type BaileysEventMap,
  type GroupMetadata,
  type MediaType,
} from 'baileys';
import { readRawBody } from '../../providers/simulator-body.js';

export const SIM_STREAM_PATH = '/socket';

/** What the fake socket reports about the auth state it was opened with (no private keys). */
export interface OpenedCreds {
  me: { id: string; name?: string; lid?: string } | null;
  registered: boolean;
  /** base64 of creds.noiseKey.public: the same value on a reopen proves the stored creds were used. */
  noiseKeyPublic: string;
  registrationId: number;
}

export interface SimulatedSocket {
  socketId: string;
  channelId: number;
  creds: OpenedCreds;
  live: boolean;
  openedAt: number;
}

export interface SimulatedSocketCall {
  channelId: number;
  socketId: string;
  method: string;
  args: unknown[];
  /** What the simulator answered (sendMessage: the WAMessage with the new key.id). */
  result?: unknown;
}

export interface SimulatedMedia {
  url: string;
  mediaKey: Buffer;
  fileSha256: Buffer;
  fileEncSha256: Buffer;
  fileLength: number;
  mimetype: string;
}

export interface ChannelBehaviour {
  /** No automatic QR / resume on open: the test emits every connection.update itself. */
  manual: boolean;
  /** What requestPairingCode answers. */
  pairingCode: string;
  /** Milliseconds every call of a method waits before it is answered (a slow provider: crash tests). */
  delays: Record<string, number>;
  /** The next call of a method fails with this status code (a Boom-like error in the fake). */
  failNext: Record<string, number>;
}

type EventName = keyof BaileysEventMap;

/** A profile picture WhatsApp's CDN serves (`hidden`: the person's privacy settings hide it from this number). */
export type SimulatedPicture = { data: Buffer; mimetype: string } | 'hidden';

/** An error node of WhatsApp's answer to a query (the library throws it as a Boom whose `data` is the code). */
class IqError extends Error {
  constructor(
    readonly text: string,
    readonly code: number,
  ) {
    super(text);
  }
}

export interface BaileysSimulator {
  url: string;
  sockets: SimulatedSocket[];
  calls: SimulatedSocketCall[];
  /** Numbers (digits) WhatsApp knows, mapped to their JID (e.g. 5561999998888 -> 556199998888@s.whatsapp.net). */
  registered: Map<string, string>;
  /** The library's LID mapping (signalRepository.lidMapping): `123@lid` -> `5511988887777@s.whatsapp.net`. */
  lids: Map<string, string>;
  /** Groups the number belongs to (groupMetadata / groupFetchAllParticipating answer these). */
  groups: Map<string, GroupMetadata>;
  /**
   * Profile pictures by number (digits) or group JID: `profilePictureUrl` answers a CDN link served here
   * (`/pictures/<id>.jpg`); without one WhatsApp answers `item-not-found` (404), a hidden one `not-authorized` (401).
   */
  pictures: Map<string, SimulatedPicture>;
  behaviour(channelId: number): ChannelBehaviour;
  /** The newest live socket of a channel, waiting up to `timeoutMs` for one (opened after `since`, epoch ms). */
  waitForSocket(channelId: number, options?: { since?: number; timeoutMs?: number }): Promise<SimulatedSocket>;
  /** Sends a library event to the channel's live socket; false when none is live. */
  emit<E extends EventName>(channelId: number, event: E, data: BaileysEventMap[E]): boolean;
  /** The phone scans the QR (or types the pairing code): creds.update with `me`, then a restartRequired close. */
  scan(channelId: number, phone: { number: string; name?: string }): boolean;
  /** Closes the live socket with a DisconnectReason status code (connection.update close). */
  disconnect(channelId: number, statusCode: number): boolean;
  /** Encrypts and serves media as WhatsApp's CDN does; the answer goes into an imageMessage/audioMessage/... */
  addMedia(data: Buffer, mediaType: MediaType, mimetype: string): Promise<SimulatedMedia>;
  callsOf(method: string, channelId?: number): SimulatedSocketCall[];
  /**
   * The messages WhatsApp delivered: one per message id of the sendMessage calls (a second send under an id already
   * sent is the same message to WhatsApp, so it is delivered once).
   */
  delivered(channelId?: number): SimulatedSocketCall[];
  /** Resolves when `count` calls of the method were recorded (sends run in jobs: tests wait for them). */
  waitForCalls(method: string, count: number, options?: { channelId?: number; timeoutMs?: number }): Promise<void>;
  close(): Promise<void>;
}

const encode = (value: unknown): string => JSON.stringify(value, BufferJSON.replacer);
const decode = (text: string): unknown => (text ? (JSON.parse(text, BufferJSON.reviver) as unknown) : undefined);

async function readBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const value = decode((await readRawBody(req)).toString());
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const digitsOf = (jidOrNumber: string) => (jidOrNumber.split('@')[0] ?? '').split(':')[0]!.replace(/\D/g, '');

export async function startBaileysSimulator(): Promise<BaileysSimulator> {
  const sockets: SimulatedSocket[] = [];
  const calls: SimulatedSocketCall[] = [];
  const registered = new Map<string, string>();
  const lids = new Map<string, string>();
  const groups = new Map<string, GroupMetadata>();
  const pictures = new Map<string, SimulatedPicture>();
  const streams = new Map<string, http.ServerResponse>();
  const backlog = new Map<string, string[]>();
  const behaviours = new Map<number, ChannelBehaviour>();
  const media = new Map<string, Buffer>();
  const waiters = new Set<() => void>();
  let qrCount = 0;
  let messageCount = 0;
  let url = '';

  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const until = async (check: () => boolean, timeoutMs: number, what: string) => {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`baileys simulator: timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 50);
        function done() {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        }
        waiters.add(done);
      });
    }
  };

  function behaviour(channelId: number): ChannelBehaviour {
    let b = behaviours.get(channelId);
    if (!b) {
      b = { manual: false, pairingCode: 'SIMPAIR1', delays: {}, failNext: {} };
      behaviours.set(channelId, b);
    }
    return b;
  }

  const liveSocket = (channelId: number) => sockets.filter((s) => s.channelId === channelId && s.live).at(-1);

  function push(socketId: string, event: string, data: unknown): void {
    const frame = `data: ${encode({ event, data })}\n\n`;
    const stream = streams.get(socketId);
    if (stream) stream.write(frame);
    else backlog.set(socketId, [...(backlog.get(socketId) ?? []), frame]);
  }

  function emitTo(socket: SimulatedSocket, event: string, data: unknown): void {
    push(socket.socketId, event, data);
    if (event === 'connection.update' && (data as { connection?: string }).connection === 'close') {
      socket.live = false;
      notify();
    }
  }

  function closeFrame(statusCode: number, message: string) {
    return {
      connection: 'close',
      lastDisconnect: { error: { message, output: { statusCode } }, date: new Date().toISOString() },
    };
  }

  function emit(channelId: number, event: string, data: unknown): boolean {
    const socket = liveSocket(channelId);
    if (!socket) return false;
    emitTo(socket, event, data);
    return true;
  }

  function scan(channelId: number, phone: { number: string; name?: string }): boolean {
    const socket = liveSocket(channelId);
    if (!socket) return false;
    const me = { id: `${phone.number}:7@s.whatsapp.net`, name: phone.name ?? 'Simulated phone' };
    emitTo(socket, 'creds.update', { me, platform: 'smba', registered: true });
    emitTo(socket, 'connection.update', { isNewLogin: true, qr: undefined });
    emitTo(socket, 'connection.update', closeFrame(DisconnectReason.restartRequired, 'restart required'));
    return true;
  }

  function disconnect(channelId: number, statusCode: number): boolean {
    const socket = liveSocket(channelId);
    if (!socket) return false;
    emitTo(socket, 'connection.update', closeFrame(statusCode, `Simulated close ${statusCode}`));
    return true;
  }

  function opened(socket: SimulatedSocket): void {
    if (behaviour(socket.channelId).manual) return;
    emitTo(socket, 'connection.update', { connection: 'connecting' });
    if (socket.creds.me)
      emitTo(socket, 'connection.update', { connection: 'open', receivedPendingNotifications: true });
    else
      emitTo(socket, 'connection.update', {
        qr: `2@sim-qr-${socket.channelId}-${++qrCount},${randomBytes(8).toString('hex')}`,
      });
  }

  /** The answer of a socket method the fake forwarded; undefined for void methods. */
  function answer(socket: SimulatedSocket, method: string, args: unknown[]): unknown {
    switch (method) {
      case 'sendMessage': {
        const [jid, content, options] = args as [string, Record<string, unknown>, { messageId?: string } | undefined];
        // Like WhatsApp: the sender may choose the id, and the same id twice is one message (see delivered()).
        const id = options?.messageId ?? `3EB0SIM${String(++messageCount).padStart(8, '0')}`;
        return {
          key: { remoteJid: jid, fromMe: true, id },
          message: content,
          messageTimestamp: Math.floor(Date.now() / 1000),
          status: 1,
        };
      }
      case 'onWhatsApp':
        return (args as string[]).map((item) => {
          const jid = registered.get(digitsOf(item));
          return jid ? { jid, exists: true } : { jid: `${digitsOf(item)}@s.whatsapp.net`, exists: false };
        });
      case 'getPNForLID':
        return lids.get(String(args[0]).split(':')[0]!.replace(/@lid$/, '') + '@lid') ?? null;
      case 'requestPairingCode':
        return behaviour(socket.channelId).pairingCode;
      case 'profilePictureUrl': {
        const jid = String(args[0]);
        const id = jid.endsWith('@g.us') ? jid : digitsOf(jid);
        const picture = pictures.get(id);
        if (picture === 'hidden') throw new IqError('not-authorized', 401);
        if (!picture) throw new IqError('item-not-found', 404);
        return `${url}/pictures/${encodeURIComponent(id)}.jpg`;
      }
      case 'groupMetadata': {
        const id = String(args[0]);
        return groups.get(id) ?? { id, subject: `Group ${digitsOf(id)}`, participants: [] };
      }
      case 'groupFetchAllParticipating':
        return Object.fromEntries(groups);
      case 'fetchMessageHistory':
        return `sim-history-${++messageCount}`;
      case 'logout':
        // The library ends the socket with loggedOut after telling the server; the fake emits that close itself.
        socket.live = false;
        return undefined;
      default:
        return undefined;
    }
  }

  async function onCall(socketId: string, body: Record<string, unknown>, send: (s: number, p: unknown) => void) {
    const socket = sockets.find((s) => s.socketId === socketId);
    if (!socket) return send(404, { error: 'unknown socket', statusCode: 404 });
    const method = String(body.method);
    const args = Array.isArray(body.args) ? (body.args as unknown[]) : [];
    const b = behaviour(socket.channelId);
    if (b.delays[method]) await sleep(b.delays[method]);
    const call: SimulatedSocketCall = { channelId: socket.channelId, socketId, method, args };
    calls.push(call);
    notify();
    const failure = b.failNext[method];
    if (failure) {
      delete b.failNext[method];
      return send(200, { error: `Simulated failure of ${method}`, statusCode: failure });
    }
    if (!socket.live && method !== 'end') return send(200, { error: 'Connection Closed', statusCode: 428 });
    if (method === 'end') socket.live = false;
    try {
      call.result = answer(socket, method, args);
    } catch (error) {
      if (!(error instanceof IqError)) throw error;
      return send(200, { error: error.text, data: error.code });
    }
    return send(200, { result: call.result });
  }

  function openStream(socketId: string, res: http.ServerResponse) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(': open\n\n');
    streams.set(socketId, res);
    for (const frame of backlog.get(socketId) ?? []) res.write(frame);
    backlog.delete(socketId);
    res.on('close', () => {
      if (streams.get(socketId) === res) streams.delete(socketId);
      const socket = sockets.find((s) => s.socketId === socketId);
      // The process holding the socket died or ended it: the socket is gone (WhatsApp drops a silent client).
      if (socket?.live) {
        socket.live = false;
        notify();
      }
    });
  }

  async function addMedia(data: Buffer, mediaType: MediaType, mimetype: string): Promise<SimulatedMedia> {
    const encrypted = await encryptedStream(data, mediaType);
    try {
      const id = randomBytes(12).toString('hex');
      media.set(id, await fs.readFile(encrypted.encFilePath));
      return {
        url: `${url}/media/${id}.enc`,
        mediaKey: encrypted.mediaKey,
        fileSha256: encrypted.fileSha256,
        fileEncSha256: encrypted.fileEncSha256,
        fileLength: encrypted.fileLength,
        mimetype,
      };
    } finally {
      await fs.rm(encrypted.encFilePath, { force: true });
    }
  }

  /** The control surface: the same operations as the in-process methods, for tests in another process. */
  async function control(req: http.IncomingMessage, target: URL, send: (s: number, p: unknown) => void) {
    const parts = target.pathname.split('/').filter(Boolean); // ['__simulator', ...]
    const body = req.method === 'POST' ? await readBody(req) : {};
    const channelId = Number(parts[2]);
    if (req.method === 'GET' && parts[1] === 'calls') {
      const method = target.searchParams.get('method');
      const channel = target.searchParams.get('channel');
      return send(
        200,
        calls.filter((c) => (!method || c.method === method) && (!channel || c.channelId === Number(channel))),
      );
    }
    if (req.method === 'GET' && parts[1] === 'delivered') {
      const channel = target.searchParams.get('channel');
      return send(200, delivered(channel ? Number(channel) : undefined));
    }
    if (req.method === 'GET' && parts[1] === 'sockets') {
      const channel = target.searchParams.get('channel');
      return send(200, channel ? sockets.filter((s) => s.channelId === Number(channel)) : sockets);
    }
    if (req.method === 'POST' && parts[1] === 'registered') {
      registered.set(digitsOf(String(body.number)), String(body.jid));
      return send(200, { ok: true });
    }
    if (req.method === 'POST' && parts[1] === 'groups') {
      groups.set(String(body.id), body as unknown as GroupMetadata);
      return send(200, { ok: true });
    }
    if (req.method === 'POST' && parts[1] === 'pictures') {
      const id = String(body.id);
      if (body.hidden) pictures.set(id, 'hidden');
      else if (body.data === undefined) pictures.delete(id);
      else pictures.set(id, { data: Buffer.from(String(body.data), 'base64'), mimetype: String(body.mimetype) });
      return send(200, { ok: true });
    }
    if (req.method === 'POST' && parts[1] === 'lids') {
      lids.set(String(body.lid), String(body.pn));
      return send(200, { ok: true });
    }
    if (req.method === 'POST' && parts[1] === 'media') {
      const data = Buffer.from(String(body.data), 'base64');
      return send(200, await addMedia(data, body.mediaType as MediaType, String(body.mimetype)));
    }
    if (req.method === 'POST' && parts[1] === 'channels' && Number.isInteger(channelId)) {
      const action = parts[3];
      if (action === 'emit') return send(200, { ok: emit(channelId, String(body.event), body.data) });
      if (action === 'scan') {
        return send(200, { ok: scan(channelId, { number: String(body.number), name: body.name as string }) });
      }
      if (action === 'disconnect') return send(200, { ok: disconnect(channelId, Number(body.statusCode)) });
      if (action === 'behaviour') {
        Object.assign(behaviour(channelId), body);
        return send(200, behaviour(channelId));
      }
    }
    return send(404, { error: 'not found' });
  }

  const server = http.createServer((req, res) => {
    const target = new URL(req.url ?? '/', 'http://local');
    const send = (status: number, payload: unknown) => {
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json' });
      res.end(encode(payload));
    };
    const fail = (error: unknown) => send(500, { error: String(error), statusCode: 500 });
    if (target.pathname.startsWith('/__simulator/')) return void control(req, target, send).catch(fail);
    const mediaMatch = /^\/media\/([0-9a-f]+)\.enc$/.exec(target.pathname);
    if (req.method === 'GET' && mediaMatch) {
      const file = media.get(mediaMatch[1]!);
      if (!file) return void res.writeHead(404).end();
      return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(file);
    }
    const pictureMatch = /^\/pictures\/(.+)\.jpg$/.exec(target.pathname);
    if (req.method === 'GET' && pictureMatch) {
      const picture = pictures.get(decodeURIComponent(pictureMatch[1]!));
      if (!picture || picture === 'hidden') return void res.writeHead(404).end();
      return void res.writeHead(200, { 'content-type': picture.mimetype }).end(picture.data);
    }
    const parts = target.pathname.split('/').filter(Boolean);
    if (`/${parts[0]}` !== SIM_STREAM_PATH) return send(404, { error: 'not found' });
    if (req.method === 'POST' && parts[1] === 'open') {
      return void readBody(req)
        .then((body) => {
          const socket: SimulatedSocket = {
            socketId: randomBytes(8).toString('hex'),
            channelId: Number(body.channelId),
            creds: body.creds as OpenedCreds,
            live: true,
            openedAt: Date.now(),
          };
          // A new socket of a channel replaces the previous one, as WhatsApp keeps one connection per device.
          for (const old of sockets) if (old.channelId === socket.channelId) old.live = false;
          sockets.push(socket);
          opened(socket);
          notify();
          send(200, { socketId: socket.socketId });
        })
        .catch(fail);
    }
    if (req.method === 'GET' && parts[2] === 'events') return openStream(parts[1]!, res);
    if (req.method === 'POST' && parts[2] === 'call') {
      return void readBody(req)
        .then((body) => onCall(parts[1]!, body, send))
        .catch(fail);
    }
    send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const callsOf = (method: string, channelId?: number) =>
    calls.filter((c) => c.method === method && (channelId === undefined || c.channelId === channelId));
  const delivered = (channelId?: number) => {
    const seen = new Set<string>();
    return callsOf('sendMessage', channelId).filter((call) => {
      const id = (call.result as { key?: { id?: string } } | undefined)?.key?.id;
      if (!id || seen.has(id)) return false;
      seen.add(id);
      return true;
    });
  };

  return {
    url,
    sockets,
    calls,
    registered,
    lids,
    groups,
    pictures,
    behaviour,
    async waitForSocket(channelId, options = {}) {
      const since = options.since ?? 0;
      const found = () => sockets.filter((s) => s.channelId === channelId && s.live && s.openedAt >= since).at(-1);
      await until(() => found() !== undefined, options.timeoutMs ?? 10_000, `a socket of channel ${channelId}`);
      return found()!;
    },
    emit: (channelId, event, data) => emit(channelId, event, data),
    scan,
    disconnect,
    addMedia,
    callsOf,
    delivered,
    async waitForCalls(method, count, options = {}) {
      await until(
        () => callsOf(method, options.channelId).length >= count,
        options.timeoutMs ?? 10_000,
        `${count} ${method} calls`,
      );
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams.values()) stream.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
