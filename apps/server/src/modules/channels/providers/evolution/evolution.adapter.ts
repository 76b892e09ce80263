/**
 * The Evolution channel (`evo`): a WhatsApp number behind an Evolution API v2 server (Baileys integration). The
 * channel holds the server's base URL (`remotePath`), its API key (`tokenAPI`) and its instance name (`wabaId`, the
 * channel name reduced to [A-Za-z0-9], fixed after creation). start() connects an instance (evolution.instance.ts:
 * on the installation's shared gateway always one it creates under an unguessable name, on a company's own gateway
 * the instance of that exact name), registers the webhook with the channel's secret as a header (Evolution sends
 * configured headers back with every call) and answers the QR code; the rest of the login arrives as
 * `qrcode.updated`/`connection.update` webhooks. The live session operations (group members, groups, phone book,
 * number checks, older history, mentions) are `live()` (evolution.live.ts); a channel with importMessages imports the
 * login's history (evolution.history.ts).
 *
 * A webhook is the channel's when it carries the header secret (ours alone, per channel, compared in constant time,
 * checked before the body is read) and its body names the channel's instance and, when Evolution exposes instance
 * tokens, carries that instance's token (`apikey`). The body's `apikey` is never the credential on its own: it is
 * absent unless the server exposes tokens, and it travels in the body Evolution also logs.
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
  type WebhookRequest,
} from '../../channels.adapter.js';
import { createEvolutionClient, type EvolutionClient, type EvolutionTarget } from './evolution.client.js';
import { createHistoryImports, parseHistoryBatch } from './evolution.history.js';
import { createEvolutionLive } from './evolution.live.js';
import {
  gatewayOf,
  instanceOf,
  isInstanceWebhook,
  newInstanceName,
  newInstanceToken,
  recordedInstance,
  type RecordedInstance,
} from './evolution.instance.js';
import { parseEvolutionMediaRef, parseEvolutionWebhook, phoneOfJid } from './evolution.parse.js';
import {
  EVOLUTION_HISTORY_EVENT,
  EVOLUTION_SECRET_HEADER,
  EVOLUTION_WEBHOOK_EVENTS,
  evoBase64Schema,
  evoConnectAnswerSchema,
  evoConnectionStateSchema,
  evoCreateAnswerSchema,
  evoFindMessagesSchema,
  evoInstancesSchema,
  evoSentSchema,
  type EvoQrcode,
} from './evolution.schemas.js';

const anyAnswer = z.unknown();

export { EVOLUTION_INSTANCE_PATTERN, evolutionInstanceName, evolutionInstanceOf } from './evolution.instance.js';

export interface EvolutionAdapter extends ChannelAdapter {
  /** Registers (again) the webhook with the channel's secret and the events the channel uses. */
  registerWebhook(channel: ChannelCredentials, webhookUrl: string): Promise<void>;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** The channel's secret, which start() registered as a header of the instance's webhook. */
function headerSecretMatches(channel: ChannelCredentials, headers: WebhookRequest['headers']): boolean {
  const given = headers[EVOLUTION_SECRET_HEADER];
  return typeof given === 'string' && sameSecret(given, channel.webhookSecret);
}

function targetOf(channel: ChannelCredentials): EvolutionTarget {
  if (!channel.remotePath) throw new ProviderError('evolution: the channel has no API URL', true);
  if (!channel.tokenAPI) throw new ProviderError('evolution: the channel has no API key', true);
  return { baseUrl: channel.remotePath, apiKey: channel.tokenAPI };
}

/** A recipient as Evolution addresses it: a group JID as given, a number as its user JID. */
const jidOf = (to: string): string => (to.includes('@') ? to : `${to.replace(/\D/g, '')}@s.whatsapp.net`);

/** Evolution's sendMedia kinds; ptt and stickers have endpoints of their own. */
const MEDIA_KINDS: Partial<Record<MessageMediaType, 'image' | 'video' | 'audio'>> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
};

export function createEvolutionAdapter(
  options: {
    client?: EvolutionClient;
    timeoutMs?: number;
    /** The login's history import: the quiet period that ends it, and the clock (evolution.history.ts). */
    historyQuietMs?: number;
    now?: () => number;
  } = {},
): EvolutionAdapter {
  const client = options.client ?? createEvolutionClient({ timeoutMs: options.timeoutMs });
  const imports = createHistoryImports({ quietMs: options.historyQuietMs, now: options.now });

  const call = <T>(
    channel: ChannelCredentials,
    method: 'GET' | 'POST' | 'DELETE',
    route: string,
    body: Record<string, unknown> | null,
    result: z.ZodType<T>,
    maxAnswerBytes?: number,
    query = '',
  ) =>
    client.call(
      targetOf(channel),
      method,
      `/${route}/${encodeURIComponent(instanceOf(channel))}${query}`,
      body,
      result,
      maxAnswerBytes,
    );

  const sent = (answer: z.infer<typeof evoSentSchema>): SendResult => ({
    providerMessageId: answer.key.id,
    ack: 1,
    timestamp: answer.messageTimestamp ? answer.messageTimestamp * 1000 : Date.now(),
  });

  async function sendText(channel: ChannelCredentials, number: string, text: string, quoted: object) {
    if (!text) throw new ProviderError('evolution: empty message', true);
    return sent(await call(channel, 'POST', 'message/sendText', { number, text, ...quoted }, evoSentSchema));
  }

  async function sendFile(channel: ChannelCredentials, message: OutboundMessage, quoted: object) {
    const media = message.media!;
    const base64 = media.data.toString('base64');
    const number = message.to;
    if (message.mediaType === 'ptt') {
      return sent(
        await call(channel, 'POST', 'message/sendWhatsAppAudio', { number, audio: base64, ...quoted }, evoSentSchema),
      );
    }
    if (message.mediaType === 'sticker') {
      return sent(
        await call(channel, 'POST', 'message/sendSticker', { number, sticker: base64, ...quoted }, evoSentSchema),
      );
    }
    const mediatype = MEDIA_KINDS[message.mediaType] ?? 'document';
    const caption = mediatype === 'audio' || message.body === media.name ? undefined : message.body || undefined;
    const body = { number, mediatype, mimetype: media.mime, fileName: media.name, media: base64, caption, ...quoted };
    return sent(await call(channel, 'POST', 'message/sendMedia', body, evoSentSchema));
  }

  /** The stored key of a message (who sent it, the group member), when Evolution keeps messages. */
  async function keyOf(channel: ChannelCredentials, to: string, id: string) {
    const found = await call(
      channel,
      'POST',
      'chat/findMessages',
      { where: { key: { id } } },
      evoFindMessagesSchema,
    ).catch((error: unknown) => {
      if (error instanceof ProviderError && error.permanent) return null;
      throw error;
    });
    const key = found?.messages.records.find((record) => record.key.id === id)?.key;
    return key
      ? {
          remoteJid: key.remoteJid,
          fromMe: key.fromMe,
          id,
          ...(key.participant ? { participant: key.participant } : {}),
        }
      : { remoteJid: jidOf(to), fromMe: false, id };
  }

  async function registerWebhook(channel: ChannelCredentials, webhookUrl: string): Promise<void> {
    const webhook = {
      enabled: true,
      url: webhookUrl,
      headers: { [EVOLUTION_SECRET_HEADER]: channel.webhookSecret },
      byEvents: false,
      base64: false,
      // The login's history only for a channel that imports it: otherwise nobody would read those calls.
      events: channel.historyImport
        ? [...EVOLUTION_WEBHOOK_EVENTS, EVOLUTION_HISTORY_EVENT]
        : [...EVOLUTION_WEBHOOK_EVENTS],
    };
    await call(channel, 'POST', 'webhook/set', { webhook }, anyAnswer);
  }

  /** The instance's state; null when Evolution does not know it. */
  async function connectionState(channel: ChannelCredentials): Promise<string | null> {
    try {
      const answer = await call(channel, 'GET', 'instance/connectionState', null, evoConnectionStateSchema);
      return answer.instance.state ?? 'close';
    } catch (error) {
      if (error instanceof ProviderError && error.status === 404) return null;
      throw error;
    }
  }

  /** The instance as fetchInstances lists it (its owner, and its token when the server exposes tokens). */
  async function fetchInstance(channel: ChannelCredentials, instance: string) {
    const query = `/instance/fetchInstances?instanceName=${encodeURIComponent(instance)}`;
    const list = await client.call(targetOf(channel), 'GET', query, null, evoInstancesSchema);
    return list.find((info) => info.name === instance) ?? null;
  }

  async function connected(
    channel: ChannelCredentials,
    recorded: RecordedInstance,
    webhookUrl: string,
  ): Promise<StartResult> {
    const info = await fetchInstance(channel, recorded.instanceName);
    return {
      status: 'CONNECTED',
      number: phoneOfJid(info?.ownerJid) ?? channel.number,
      providerState: { ...recorded, webhookUrl },
    };
  }

  const waiting = (qr: EvoQrcode | null | undefined, recorded: RecordedInstance, webhookUrl: string): StartResult => ({
    status: qr?.pairingCode ? 'PAIRING' : qr?.code ? 'qrcode' : 'OPENING',
    qrcode: qr?.code ?? null,
    pairingCode: qr?.pairingCode ?? null,
    number: null,
    providerState: { ...recorded, webhookUrl },
  });

  /**
   * Creates the instance under `name` with our token. An existing name is refused by Evolution (403 "already in
   * use"): that is a refusal here too, never a reason to connect to it.
   */
  async function createInstance(channel: ChannelCredentials, name: string, token: string) {
    // A new instance is a new login: with importMessages WhatsApp is asked for the full history (Baileys'
    // syncFullHistory), which Evolution posts as messages.set.
    const history = channel.historyImport ? { syncFullHistory: true } : {};
    try {
      const answer = await client.call(
        targetOf(channel),
        'POST',
        '/instance/create',
        { instanceName: name, token, integration: 'WHATSAPP-BAILEYS', qrcode: true, ...history },
        evoCreateAnswerSchema,
      );
      imports.reset(channel.id);
      return answer;
    } catch (error) {
      if (error instanceof ProviderError && (error.status === 403 || error.status === 409)) {
        throw new ProviderError('evolution: an instance of that name exists already', true, error.status);
      }
      throw error;
    }
  }

  /**
   * The instance a start connects, with the state it is in (null: it had to be created, `created` holds the answer).
   * Shared gateway: the instance this channel created before, else a new one under a new name. Own gateway: the
   * recorded instance, else the one named `wabaId`, adopted when it exists.
   */
  async function instanceForStart(channel: ChannelCredentials, shared: boolean) {
    const gateway = gatewayOf(channel.remotePath);
    if (!gateway) throw new ProviderError('evolution: invalid API URL', true);
    const recorded = recordedInstance(channel);
    const ours = recorded && (recorded.instanceCreated || !shared) ? recorded : null;
    const name = ours?.instanceName ?? (shared ? newInstanceName(channel.wabaId) : instanceOf(channel));
    const probe = { ...channel, providerState: { instanceName: name, instanceGateway: gateway } };
    const state = ours || !shared ? await connectionState(probe) : null;
    if (state === null) {
      const token = newInstanceToken();
      const created = await createInstance(channel, name, token);
      const record = { instanceName: name, instanceToken: token, instanceCreated: true, instanceGateway: gateway };
      return { record, state: created.instance.status ?? 'connecting', qr: created.qrcode };
    }
    // Adopted (own gateway only) or ours: its token is what we gave it, or what the server exposes of it.
    const token = ours?.instanceToken ?? (await fetchInstance(probe, name))?.token ?? null;
    const record = {
      instanceName: name,
      instanceToken: token,
      instanceCreated: ours?.instanceCreated ?? false,
      instanceGateway: gateway,
    };
    return { record, state, qr: undefined };
  }

  return {
    type: 'evo',
    capabilities: {
      edit: true,
      delete: true,
      react: true,
      qrcode: true,
      media: ['chat', 'image', 'video', 'audio', 'ptt', 'application', 'sticker'],
    },

    verifyHeaders: headerSecretMatches,

    // The header secret proves the webhook is ours; the body must also be the channel's instance speaking (another
    // instance's events rewired to this channel's URL are refused, nothing stored).
    verifyInbound(channel, request) {
      return headerSecretMatches(channel, request.headers) && isInstanceWebhook(channel, request.body);
    },

    parseInbound(channel, body) {
      const instance = instanceOf(channel);
      const batch = channel.historyImport ? parseHistoryBatch(body, instance, channel.historyImport) : null;
      return imports.events(channel.id, batch, batch ? [] : parseEvolutionWebhook(body, instance));
    },

    async send(channel, message) {
      const quoted = message.replyToProviderMessageId
        ? { quoted: { key: { id: message.replyToProviderMessageId } } }
        : {};
      if (!message.media) return sendText(channel, message.to, message.body, quoted);
      const result = await sendFile(channel, message, quoted);
      // Voice notes and stickers carry no caption: a text of its own follows (never the file's own name).
      const captionless =
        message.mediaType === 'ptt' || message.mediaType === 'sticker' || message.mediaType === 'audio';
      if (captionless && message.body && message.body !== message.media.name) {
        await sendText(channel, message.to, message.body, {});
      }
      return result;
    },

    async edit(channel, to, providerMessageId, body) {
      const key = { remoteJid: jidOf(to), fromMe: true, id: providerMessageId };
      await call(channel, 'POST', 'chat/updateMessage', { number: to, text: body, key }, anyAnswer);
    },

    async delete(channel, to, providerMessageId) {
      const key = { id: providerMessageId, remoteJid: jidOf(to), fromMe: true };
      await call(channel, 'DELETE', 'chat/deleteMessageForEveryone', key, anyAnswer);
    },

    async react(channel, to, providerMessageId, emoji) {
      const key = await keyOf(channel, to, providerMessageId);
      await call(channel, 'POST', 'message/sendReaction', { key, reaction: emoji }, anyAnswer);
    },

    async downloadMedia(channel, ref, maxBytes) {
      const key = parseEvolutionMediaRef(ref);
      if (!key) throw new ProviderError('evolution download: not an Evolution media reference', true);
      // base64 is 4/3 of the bytes; the answer also carries the message's fields.
      const limit = Math.ceil((maxBytes * 4) / 3) + 64 * 1024;
      const body = { message: { key }, convertToMp4: false };
      const answer = await call(channel, 'POST', 'chat/getBase64FromMediaMessage', body, evoBase64Schema, limit);
      const data = Buffer.from(answer.base64, 'base64');
      if (data.length > maxBytes) throw new ProviderError('evolution download: file too large', true);
      return { data, mime: answer.mimetype ?? null, name: answer.fileName ?? null };
    },

    async start(channel, webhookUrl, options = {}) {
      const { record, state, qr: created } = await instanceForStart(channel, options.sharedGateway === true);
      // From here on the channel is that instance (its calls and webhooks name it).
      const started = { ...channel, providerState: { ...channel.providerState, ...record } };
      await registerWebhook(started, webhookUrl);
      if (state === 'open') return connected(started, record, webhookUrl);
      // A pairing-code login: Evolution answers the code for the number given to instance/connect.
      let qr = created;
      const pairing = options.pairingNumber ? `?number=${encodeURIComponent(options.pairingNumber)}` : '';
      if (!qr?.code || pairing) {
        const answer = await call(started, 'GET', 'instance/connect', null, evoConnectAnswerSchema, undefined, pairing);
        if (answer.instance?.state === 'open') return connected(started, record, webhookUrl);
        qr = answer;
      }
      return waiting(qr, record, webhookUrl);
    },

    async stop(channel) {
      try {
        await call(channel, 'DELETE', 'instance/logout', null, anyAnswer);
      } catch (error) {
        // Not connected (400) or no such instance (404): already logged out.
        if (error instanceof ProviderError && (error.status === 400 || error.status === 404)) return;
        throw error;
      }
    },

    registerWebhook,

    live: (channel) =>
      createEvolutionLive((method, route, body, result, maxAnswerBytes, query) =>
        call(channel, method, route, body, result, maxAnswerBytes, query),
      ),
  };
}
