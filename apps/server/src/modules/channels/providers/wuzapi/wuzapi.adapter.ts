/**
 * The Wuzapi channel (`meow`): a WhatsApp number connected by QR code through a Wuzapi gateway (a whatsmeow REST
 * server). The channel holds the gateway's base URL (`remotePath`) and the Wuzapi user token (`tokenAPI`); `wabaId`
 * names the instance. Webhooks are signed: start() gives Wuzapi the channel's webhook secret as its HMAC key, and
 * every webhook must carry `x-hmac-signature` = hex HMAC-SHA256 of the raw body under that key (computed while the
 * body streams, before it is parsed) and name the channel's Wuzapi user (wuzapi.identity.ts).
 *
 * Live operations (groups, phone book, number checks, stored history, mentions): wuzapi.live.ts. The login's history
 * (importMessages): HistorySync webhooks, subscribed only then (wuzapiEvents), turned into imported messages by
 * wuzapi.history.ts.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import type { MessageMediaType } from '@conversa/shared';
import {
  ProviderError,
  type ChannelAdapter,
  type ChannelCredentials,
  type OutboundMessage,
  type SendResult,
  type StartResult,
} from '../../channels.adapter.js';
import { createWuzapiClient, wuzapiTarget, type WuzapiClient, type WuzapiTarget } from './wuzapi.client.js';
import { createWuzapiNumbers } from './wuzapi.numbers.js';
import { createWuzapiHistoryImport } from './wuzapi.history.js';
import { isOwnUserWebhook, wuzapiUserIdOf } from './wuzapi.identity.js';
import { createWuzapiLive } from './wuzapi.live.js';
import { parseWuzapiPayload, phoneOf, splitJid, webhookPayload } from './wuzapi.parse.js';
import {
  WUZAPI_EVENTS,
  wuzapiDownloadSchema,
  wuzapiMediaRefSchema,
  wuzapiPairSchema,
  wuzapiQrSchema,
  wuzapiSentSchema,
  wuzapiStatusSchema,
  type WuzapiMediaRef,
} from './wuzapi.schemas.js';

export const WUZAPI_SIGNATURE_HEADER = 'x-hmac-signature';

const anyResult = z.unknown();
const ID_PREFIX = '3EB0';

/** The hex HMAC-SHA256 Wuzapi puts in `x-hmac-signature`. */
export const wuzapiSignature = (body: Buffer | string, key: string): string =>
  crypto.createHmac('sha256', key).update(body).digest('hex');

function sameHex(given: string, expected: string): boolean {
  const a = Buffer.from(given.toLowerCase());
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/**
 * Ids of the messages we send are ours to choose (`Id` of /chat/send/*): a random part and a mark only the channel's
 * secret makes, so a reaction to one of ours can tell Wuzapi it is ours (`me:`), which WhatsApp needs to find it.
 */
const mark = (secret: string, nonce: string) =>
  crypto.createHmac('sha256', secret).update(`wuzapi-id:${nonce}`).digest('hex').slice(0, 8).toUpperCase();

/**
 * With a `seed` (the stored message's clientMessageId) the id is the same at every attempt, so a send repeated after a
 * crash is the same WhatsApp message; without one it is random.
 */
export function newWuzapiMessageId(secret: string, seed?: string): string {
  const part = seed
    ? crypto.createHash('sha256').update(`wuzapi-seed:${seed}`).digest('hex').slice(0, 12)
    : crypto.randomBytes(6).toString('hex');
  const nonce = `${ID_PREFIX}${part.toUpperCase()}`;
  return `${nonce}${mark(secret, nonce)}`;
}

export function isOwnWuzapiMessageId(secret: string, id: string): boolean {
  if (id.length !== 24 || !id.startsWith(ID_PREFIX)) return false;
  return sameHex(id.slice(16), mark(secret, id.slice(0, 16)).toLowerCase());
}

const dataUrl = (mime: string, data: Buffer) => `data:${mime};base64,${data.toString('base64')}`;

function decodeDataUrl(value: string): { mime: string | null; data: Buffer } {
  const comma = value.indexOf(',');
  if (!value.startsWith('data:') || comma < 0) throw new ProviderError('wuzapi download: not a data URL', true);
  const header = value.slice(5, comma);
  if (!header.endsWith(';base64')) throw new ProviderError('wuzapi download: not base64', true);
  return { mime: header.slice(0, -7) || null, data: Buffer.from(value.slice(comma + 1), 'base64') };
}

const sentAt = (timestamp: number | string | undefined): number => {
  if (typeof timestamp === 'number') return timestamp * 1000;
  const parsed = timestamp ? Date.parse(timestamp) : NaN;
  return Number.isNaN(parsed) ? Date.now() : parsed;
};

/** Which send endpoint and data field a file goes by; a file whose type the endpoint refuses goes as a document. */
function mediaRoute(mediaType: MessageMediaType, mime: string): 'image' | 'video' | 'audio' | 'sticker' | 'document' {
  if (mediaType === 'image' && /^image\/(jpeg|png)$/.test(mime)) return 'image';
  if (mediaType === 'sticker' && /^(image\/webp|video\/mp4)$/.test(mime)) return 'sticker';
  if (mediaType === 'video' && mime.startsWith('video/')) return 'video';
  if ((mediaType === 'audio' || mediaType === 'ptt') && mime.startsWith('audio/')) return 'audio';
  return 'document';
}

const DOWNLOAD_PATHS: Record<WuzapiMediaRef['kind'], string> = {
  image: '/chat/downloadimage',
  video: '/chat/downloadvideo',
  audio: '/chat/downloadaudio',
  document: '/chat/downloaddocument',
};

/** The events a channel subscribes to: HistorySync (the login's history) only when it imports it (importMessages). */
export const wuzapiEvents = (channel: ChannelCredentials): string[] =>
  channel.historyImport ? [...WUZAPI_EVENTS, 'HistorySync'] : [...WUZAPI_EVENTS];

/** Registers the channel's webhook with Wuzapi: the HMAC key first (so no webhook goes unsigned), then the URL. */
export async function registerWuzapiWebhook(
  client: WuzapiClient,
  channel: ChannelCredentials,
  webhookUrl: string,
): Promise<void> {
  const target = wuzapiTarget(channel);
  await client.call(target, 'POST', '/session/hmac/config', { hmac_key: channel.webhookSecret }, anyResult);
  const events = wuzapiEvents(channel);
  await client.call(target, 'POST', '/webhook', { webhookurl: webhookUrl, events }, anyResult);
}

export interface WuzapiAdapter extends ChannelAdapter {
  /** The code to type on the phone (login by number instead of QR); the session must be connected (start()). */
  pairPhone(channel: ChannelCredentials, phone: string): Promise<string>;
}

export function createWuzapiAdapter(
  options: { client?: WuzapiClient; newMessageId?: (secret: string, seed?: string) => string } = {},
): WuzapiAdapter {
  const client = options.client ?? createWuzapiClient();
  const newId = options.newMessageId ?? newWuzapiMessageId;

  /** Reply context: Wuzapi needs the quoted message's author; in groups we do not know it, so no quote there. */
  function quoteOf(channel: ChannelCredentials, to: string, replyTo: string | null): Record<string, unknown> {
    if (!replyTo || to.includes('@')) return {};
    const own = isOwnWuzapiMessageId(channel.webhookSecret, replyTo);
    const ownJid = typeof channel.providerState.jid === 'string' ? channel.providerState.jid : null;
    const participant = own && ownJid ? `${splitJid(ownJid).user}@s.whatsapp.net` : `${to}@s.whatsapp.net`;
    return { ContextInfo: { StanzaId: replyTo, Participant: participant } };
  }

  const numbers = createWuzapiNumbers(client);
  const phoneFor = numbers.phoneFor;
  const historyImport = createWuzapiHistoryImport();

  async function pairPhone(channel: ChannelCredentials, phone: string): Promise<string> {
    const answer = await client.call(
      wuzapiTarget(channel),
      'POST',
      '/session/pairphone',
      { Phone: phone },
      wuzapiPairSchema,
    );
    return answer.LinkingCode;
  }

  async function post(target: WuzapiTarget, path: string, body: Record<string, unknown>): Promise<SendResult> {
    const sent = await client.call(target, 'POST', path, body, wuzapiSentSchema);
    return { providerMessageId: sent.Id, ack: 1, timestamp: sentAt(sent.Timestamp) };
  }

  async function sendMedia(channel: ChannelCredentials, target: WuzapiTarget, message: OutboundMessage) {
    const media = message.media!;
    const base = {
      Phone: message.to,
      Id: newId(channel.webhookSecret, message.clientMessageId),
      ...quoteOf(channel, message.to, message.replyToProviderMessageId),
    };
    const route = mediaRoute(message.mediaType, media.mime);
    const caption = message.body;
    switch (route) {
      case 'image':
        return {
          result: await post(target, '/chat/send/image', {
            ...base,
            Image: dataUrl(media.mime, media.data),
            Caption: caption,
            MimeType: media.mime,
          }),
          rest: '',
        };
      case 'video':
        return {
          result: await post(target, '/chat/send/video', {
            ...base,
            Video: dataUrl(media.mime, media.data),
            Caption: caption,
          }),
          rest: '',
        };
      case 'audio': {
        const body = {
          ...base,
          Audio: dataUrl(media.mime, media.data),
          ptt: message.mediaType === 'ptt',
          mimetype: media.mime,
        };
        return { result: await post(target, '/chat/send/audio', body), rest: caption };
      }
      case 'sticker':
        return {
          result: await post(target, '/chat/send/sticker', { ...base, Sticker: dataUrl(media.mime, media.data) }),
          rest: caption,
        };
      default: {
        const body = {
          ...base,
          // Wuzapi's document endpoint takes the bytes under this one type and the real one in MimeType.
          Document: dataUrl('application/octet-stream', media.data),
          FileName: media.name,
          MimeType: media.mime,
          Caption: caption,
        };
        return { result: await post(target, '/chat/send/document', body), rest: '' };
      }
    }
  }

  return {
    type: 'meow',
    capabilities: {
      edit: true,
      delete: true,
      react: true,
      qrcode: true,
      media: ['chat', 'image', 'video', 'audio', 'ptt', 'application', 'sticker'],
    },

    // The HMAC covers the raw body: the route computes it while the body streams (nothing is parsed before it
    // matched), and verifyInbound checks it again over the bytes kept.
    bodySignature(channel, headers) {
      const given = headers[WUZAPI_SIGNATURE_HEADER];
      if (typeof given !== 'string' || !/^[0-9a-fA-F]{64}$/.test(given)) return null;
      const hmac = crypto.createHmac('sha256', channel.webhookSecret);
      return {
        update: (chunk) => void hmac.update(chunk),
        matches: () => sameHex(given, hmac.digest('hex')),
      };
    },

    // Signed with the channel's key, and naming the channel's own Wuzapi user (wuzapi.identity.ts).
    verifyInbound(channel, request) {
      const given = request.headers[WUZAPI_SIGNATURE_HEADER];
      if (typeof given !== 'string' || !request.rawBody) return false;
      if (!sameHex(given, wuzapiSignature(request.rawBody, channel.webhookSecret))) return false;
      return isOwnUserWebhook(channel, request.body);
    },

    parseInbound(channel, body) {
      const payload = webhookPayload(body);
      return payload.type === 'HistorySync' ? historyImport(channel, payload.event) : parseWuzapiPayload(payload);
    },

    async send(channel, outbound) {
      const target = wuzapiTarget(channel);
      const message = { ...outbound, to: await phoneFor(channel, outbound.to) };
      if (!message.media) {
        if (!message.body) throw new ProviderError('wuzapi: empty message', true);
        return post(target, '/chat/send/text', {
          Phone: message.to,
          Body: message.body,
          Id: newId(channel.webhookSecret, message.clientMessageId),
          ...quoteOf(channel, message.to, message.replyToProviderMessageId),
        });
      }
      const { result, rest } = await sendMedia(channel, target, message);
      // Audio and stickers carry no caption: the text follows as its own message.
      if (rest) {
        const seed = message.clientMessageId && `${message.clientMessageId}:text`;
        await post(target, '/chat/send/text', {
          Phone: message.to,
          Body: rest,
          Id: newId(channel.webhookSecret, seed),
        });
      }
      return result;
    },

    async edit(channel, to, providerMessageId, body) {
      await client.call(
        wuzapiTarget(channel),
        'POST',
        '/chat/send/edit',
        { Phone: await phoneFor(channel, to), Id: providerMessageId, Body: body },
        anyResult,
      );
    },

    async delete(channel, to, providerMessageId) {
      const phone = await phoneFor(channel, to);
      await client.call(
        wuzapiTarget(channel),
        'POST',
        '/chat/delete',
        { Phone: phone, Id: providerMessageId },
        anyResult,
      );
    },

    async react(channel, contact, providerMessageId, emoji) {
      const to = await phoneFor(channel, contact);
      const own = isOwnWuzapiMessageId(channel.webhookSecret, providerMessageId);
      const body = { Phone: to, Body: emoji || 'remove', Id: own ? `me:${providerMessageId}` : providerMessageId };
      await client.call(wuzapiTarget(channel), 'POST', '/chat/react', body, anyResult);
    },

    async downloadMedia(channel, ref, maxBytes) {
      let parsed: WuzapiMediaRef;
      try {
        parsed = wuzapiMediaRefSchema.parse(JSON.parse(ref));
      } catch {
        throw new ProviderError('wuzapi download: not a Wuzapi media reference', true);
      }
      if (parsed.FileLength > maxBytes) throw new ProviderError('wuzapi download: file too large', true);
      const { kind, ...fields } = parsed;
      // The answer is the file as a base64 data URL: 4/3 of the bytes plus the JSON around it.
      const answerLimit = Math.ceil((maxBytes * 4) / 3) + 64 * 1024;
      const answer = await client.call(
        wuzapiTarget(channel),
        'POST',
        DOWNLOAD_PATHS[kind],
        fields,
        wuzapiDownloadSchema,
        {
          maxBytes: answerLimit,
        },
      );
      const { mime, data } = decodeDataUrl(answer.Data);
      if (data.length > maxBytes) throw new ProviderError('wuzapi download: file too large', true);
      return { data, mime: answer.Mimetype ?? mime ?? parsed.Mimetype, name: null };
    },

    async start(channel, webhookUrl, options = {}): Promise<StartResult> {
      const target = wuzapiTarget(channel);
      await registerWuzapiWebhook(client, channel, webhookUrl);
      try {
        const connect = { Subscribe: wuzapiEvents(channel), Immediate: true };
        await client.call(target, 'POST', '/session/connect', connect, anyResult);
      } catch (error) {
        // A session that is up already is what we asked for.
        if (!(error instanceof ProviderError) || !/already connected/i.test(error.message)) throw error;
      }
      const status = await client.call(target, 'GET', '/session/status', null, wuzapiStatusSchema);
      // The user id names the channel's Wuzapi user in every JSON webhook (`userID`), checked by verifyInbound.
      const userId = wuzapiUserIdOf(status);
      const providerState: Record<string, unknown> = {
        webhookUrl,
        ...(status.jid ? { jid: status.jid } : {}),
        ...(userId ? { userId } : {}),
      };
      if (status.loggedIn ?? status.LoggedIn) {
        return { number: phoneOf(status.jid), status: 'CONNECTED', providerState };
      }
      // A pairing-code login: Wuzapi links by the number once the session is connecting.
      if (options.pairingNumber) {
        const pairingCode = await pairPhone(channel, options.pairingNumber);
        return { number: null, status: 'PAIRING', qrcode: null, pairingCode, providerState };
      }
      // The QR may not be made yet right after connecting: then it arrives by the QR webhook.
      const qr = await client.call(target, 'GET', '/session/qr', null, wuzapiQrSchema).catch((error: unknown) => {
        if (error instanceof ProviderError) return null;
        throw error;
      });
      const qrcode = qr?.QRCode || null;
      return { number: null, status: qrcode ? 'qrcode' : 'OPENING', qrcode, providerState };
    },

    pairPhone,

    live: createWuzapiLive({ client, numbers, newMessageId: newId, post }),

    /** Logout ends the WhatsApp session (a new QR next time); a session that never logged in is disconnected. */
    async stop(channel) {
      const target = wuzapiTarget(channel);
      const notThere = (error: unknown) =>
        error instanceof ProviderError && /no session|not logged in|not connected/i.test(error.message);
      try {
        await client.call(target, 'POST', '/session/logout', null, anyResult);
      } catch (error) {
        if (!notThere(error)) throw error;
        await client.call(target, 'POST', '/session/disconnect', null, anyResult).catch((inner: unknown) => {
          if (!notThere(inner)) throw inner;
        });
      }
    },
  };
}
