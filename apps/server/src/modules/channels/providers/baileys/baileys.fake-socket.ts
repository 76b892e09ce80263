/**
 * A stand-in for baileys' `makeWASocket` (tests only): the same call shape, the subset of the socket the driver uses,
 * and an `ev` emitter carrying the library's own event shapes, which come from the Baileys simulator
 * (baileys.simulator.ts) over HTTP: one POST opens the socket (with a summary of the creds it was given), an SSE stream
 * brings the events, and every method is a recorded POST. Over HTTP so it also runs inside a separately started server
 * (BAILEYS_SOCKET_MODULE = this file built, BAILEYS_SIMULATOR_URL = the simulator).
 *
 * Like the library it merges `creds.update` into `config.auth.creds` before the driver's listeners see the event, ends
 * with a `connection.update` close carrying a Boom-like error (`output.statusCode`), and `logout()` ends with
 * DisconnectReason.loggedOut.
 */
import { EventEmitter } from 'node:events';
import {
  BufferJSON,
  DisconnectReason,
  type AuthenticationCreds,
  type BaileysEventMap,
  type UserFacingSocketConfig,
} from 'baileys';
import type { BaileysSocket } from './baileys.socket.js';

export type FakeSocketConfig = Pick<UserFacingSocketConfig, 'auth'> &
  Partial<UserFacingSocketConfig> & { channelId: number; simulatorUrl?: string };

const encode = (value: unknown): string => JSON.stringify(value, BufferJSON.replacer);
const decode = (text: string): unknown => JSON.parse(text, BufferJSON.reviver) as unknown;

/**
 * The library's error for an error node in WhatsApp's answer to a query (`assertNodeErrorFree`): a Boom with the
 * node's text as message and its code as `data` (its statusCode stays Boom's default, 500).
 */
function iqError(text: string, code: number): Error {
  return Object.assign(boom(text, 500), { data: code });
}

/** An error shaped like the library's Boom errors (what the driver reads: `output.statusCode`). */
function boom(message: string, statusCode: number): Error {
  return Object.assign(new Error(message), { isBoom: true, output: { statusCode, payload: { statusCode, message } } });
}

function credsSummary(creds: AuthenticationCreds) {
  return {
    me: creds.me ? { id: creds.me.id, name: creds.me.name, lid: creds.me.lid } : null,
    registered: Boolean(creds.registered),
    noiseKeyPublic: Buffer.from(creds.noiseKey.public).toString('base64'),
    registrationId: creds.registrationId,
  };
}

export function makeWASocket(config: FakeSocketConfig): BaileysSocket {
  if (!config.simulatorUrl) throw new Error('fake baileys socket: no simulator URL (BAILEYS_SIMULATOR_URL)');
  const base = config.simulatorUrl.replace(/\/$/, '');
  const emitter = new EventEmitter();
  const creds = config.auth.creds;
  const abort = new AbortController();
  let closed = false;

  const emit = <E extends keyof BaileysEventMap>(event: E, data: BaileysEventMap[E]) => {
    if (event === 'creds.update') Object.assign(creds, data);
    emitter.emit(event, data);
  };

  const closeWith = (error: Error | undefined) => {
    if (closed) return;
    closed = true;
    abort.abort();
    emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
  };

  function deliver(frame: { event: keyof BaileysEventMap; data: unknown }) {
    if (closed) return;
    if (frame.event === 'connection.update') {
      const update = frame.data as {
        connection?: string;
        lastDisconnect?: { error?: { message: string; output?: { statusCode: number } } };
      };
      if (update.connection === 'close') {
        const error = update.lastDisconnect?.error;
        closeWith(error ? boom(error.message, error.output?.statusCode ?? 500) : undefined);
        return;
      }
    }
    emit(frame.event, frame.data as never);
  }

  async function readEvents(socketId: string) {
    const response = await fetch(`${base}/socket/${socketId}/events`, { signal: abort.signal });
    if (!response.ok || !response.body) throw new Error(`simulator events answered ${response.status}`);
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body) {
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const frame = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = frame
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (data) deliver(decode(data) as { event: keyof BaileysEventMap; data: unknown });
      }
    }
    throw new Error('simulator closed the event stream');
  }

  const opened: Promise<string> = (async () => {
    const response = await fetch(`${base}/socket/open`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: encode({ channelId: config.channelId, creds: credsSummary(creds) }),
      signal: abort.signal,
    });
    if (!response.ok) throw new Error(`simulator open answered ${response.status}`);
    const { socketId } = (await response.json()) as { socketId: string };
    readEvents(socketId).catch((error: unknown) => {
      if (!closed) closeWith(error instanceof Error ? error : new Error(String(error)));
    });
    return socketId;
  })();
  opened.catch((error: unknown) => closeWith(error instanceof Error ? error : new Error(String(error))));

  async function call(method: string, args: unknown[]): Promise<unknown> {
    const socketId = await opened;
    const response = await fetch(`${base}/socket/${socketId}/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: encode({ method, args }),
    });
    const answer = decode(await response.text()) as {
      result?: unknown;
      error?: string;
      statusCode?: number;
      data?: number;
    };
    if (answer.error !== undefined && answer.data !== undefined) throw iqError(answer.error, answer.data);
    if (answer.error !== undefined) throw boom(answer.error, answer.statusCode ?? 500);
    return answer.result;
  }

  const ended = async (error: Error | undefined) => {
    if (closed) return;
    await call('end', [error?.message ?? null]).catch(() => undefined);
    closeWith(error);
  };

  return {
    ev: {
      on: (event, listener) => void emitter.on(event, listener as (arg: unknown) => void),
      removeAllListeners: (event) => void emitter.removeAllListeners(event),
    },
    get user() {
      return creds.me;
    },
    sendMessage: async (jid, content, options) =>
      (await call('sendMessage', [
        jid,
        content,
        options ? { quoted: options.quoted, messageId: options.messageId } : undefined,
      ])) as never,
    readMessages: async (keys) => void (await call('readMessages', [keys])),
    rejectCall: async (callId, callFrom) => void (await call('rejectCall', [callId, callFrom])),
    onWhatsApp: async (...numbers) => (await call('onWhatsApp', numbers)) as never,
    profilePictureUrl: async (jid, type) => (await call('profilePictureUrl', [jid, type])) as string | undefined,
    groupMetadata: async (jid) => (await call('groupMetadata', [jid])) as never,
    groupFetchAllParticipating: async () => (await call('groupFetchAllParticipating', [])) as never,
    fetchMessageHistory: async (count, key, timestamp) =>
      (await call('fetchMessageHistory', [count, key, timestamp])) as string,
    requestPairingCode: async (phoneNumber) => (await call('requestPairingCode', [phoneNumber])) as string,
    logout: async () => {
      await call('logout', []);
      closeWith(boom('Intentional Logout', DisconnectReason.loggedOut));
    },
    end: ended,
    signalRepository: {
      lidMapping: { getPNForLID: async (lid) => (await call('getPNForLID', [lid])) as string | null },
    },
  };
}
