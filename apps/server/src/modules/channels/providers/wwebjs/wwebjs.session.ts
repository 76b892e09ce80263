/**
 * One open whatsapp-web.js session's calls (the LiveSession side): sends, edits, deletes, reactions, media downloads
 * and number checks through the library's client, with the small memory a session needs for them: the serialized id
 * of each message seen (the library's actions take `<fromMe>_<chat>_<id>[_<participant>]`, the product keeps `id`),
 * the WhatsApp id each number resolved to (ninth digit), and the ids of messages this process sent (so the
 * `message_create` echo of our own send is not stored a second time as written on the phone).
 */
import type WAWebJS from 'whatsapp-web.js';
import { ProviderError, type OutboundMessage, type SendResult } from '../../channels.adapter.js';
import type { NumberCheck } from '../../sessions/session-driver.js';
import { normalizeWhatsAppNumber, whatsAppNumberForms } from '../whatsapp-number.js';
import type { WwebjsClient, WwebjsLibrary } from './wwebjs.client.js';
import { parseSerializedId } from './wwebjs.parse.js';

const REMEMBERED = 5_000;

/** A Map that forgets its oldest entries past a size. */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }
  override set(key: K, value: V): this {
    if (this.has(key)) this.delete(key);
    super.set(key, value);
    if (this.size > this.limit) this.delete(this.keys().next().value as K);
    return this;
  }
}

const notReady = () => new ProviderError('ERR_WAPP_NOT_INITIALIZED', false);

/** A library call failed: the page or the connection (transient) unless the caller knows better. */
function providerFailure(what: string, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ProviderError(`whatsapp-web.js ${what}: ${reason}`, false);
}

export interface SessionCalls {
  readonly ready: boolean;
  setReady(ready: boolean): void;
  /** Remember a message's serialized id (every message event and send). */
  remember(message: unknown): void;
  /** Resolves once the sends in flight when called are done: our own echoes are known by then. */
  sendsSettled(): Promise<void>;
  sentHere(id: string): boolean;
  send(message: OutboundMessage): Promise<SendResult>;
  edit(to: string, providerMessageId: string, body: string): Promise<void>;
  delete(to: string, providerMessageId: string): Promise<void>;
  react(to: string, providerMessageId: string, emoji: string): Promise<void>;
  downloadMedia(ref: string, maxBytes: number): Promise<{ data: Buffer; mime: string | null; name: string | null }>;
  checkNumber(number: string): Promise<NumberCheck>;
  /** The URL of a chat's profile picture; null without one, hidden by privacy, or for a number not on WhatsApp. */
  profilePicture(chatId: string): Promise<string | null>;
  /** Sends the text to a chat id as the library names it (call rejections). */
  sendText(chatId: string, text: string): Promise<void>;
}

export function createSessionCalls(client: WwebjsClient, lib: Pick<WwebjsLibrary, 'MessageMedia'>): SessionCalls {
  let ready = false;
  const serializedOf = new BoundedMap<string, string>(REMEMBERED);
  const chatOfNumber = new BoundedMap<string, string>(REMEMBERED);
  const sent = new BoundedMap<string, true>(REMEMBERED);
  const inFlight = new Set<Promise<unknown>>();

  const ensureReady = () => {
    if (!ready) throw notReady();
  };

  function remember(message: unknown): void {
    const id = (message as { id?: { id?: unknown; _serialized?: unknown } } | null | undefined)?.id;
    if (id && typeof id.id === 'string' && typeof id._serialized === 'string') serializedOf.set(id.id, id._serialized);
  }

  /** The WhatsApp id of a number (either ninth-digit form), null when it is not on WhatsApp. */
  async function numberId(number: string): Promise<{ user: string; _serialized: string } | null> {
    for (const form of whatsAppNumberForms(number)) {
      const id = await client.getNumberId(form);
      if (id) return id;
    }
    return null;
  }

  /** The chat id to address: groups and LIDs as given, a number as WhatsApp knows it. */
  async function chatIdOf(to: string): Promise<string> {
    if (to.includes('@')) return to;
    const known = chatOfNumber.get(to);
    if (known) return known;
    const id = await numberId(to);
    if (!id) throw new ProviderError('whatsapp-web.js: the number is not on WhatsApp', true);
    chatOfNumber.set(to, id._serialized);
    return id._serialized;
  }

  /** The library's message for a product id: remembered, else rebuilt for our side and theirs. */
  async function findMessage(to: string, providerMessageId: string): Promise<WAWebJS.Message | null> {
    const direct = parseSerializedId(providerMessageId) ? providerMessageId : serializedOf.get(providerMessageId);
    if (direct) {
      const found = await client.getMessageById(direct);
      if (found) return found;
    }
    const chat = await chatIdOf(to);
    for (const fromMe of [true, false]) {
      const found = await client.getMessageById(`${fromMe}_${chat}_${providerMessageId}`);
      if (found) return found;
    }
    return null;
  }

  async function messageFor(to: string, providerMessageId: string, what: string): Promise<WAWebJS.Message> {
    ensureReady();
    let message: WAWebJS.Message | null;
    try {
      message = await findMessage(to, providerMessageId);
    } catch (error) {
      throw providerFailure(what, error);
    }
    if (!message) throw new ProviderError(`whatsapp-web.js ${what}: message not found`, true);
    return message;
  }

  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    void work.catch(() => undefined).finally(() => inFlight.delete(work));
    return work;
  }

  async function sendRaw(chatId: string, content: string | WAWebJS.MessageMedia, options: WAWebJS.MessageSendOptions) {
    const message = await track(client.sendMessage(chatId, content, options));
    if (message) {
      sent.set(message.id.id, true);
      remember(message);
    }
    return message;
  }

  return {
    get ready() {
      return ready;
    },
    setReady(value) {
      ready = value;
    },
    remember,
    async sendsSettled() {
      await Promise.allSettled([...inFlight]);
    },
    sentHere: (id) => sent.has(id),

    async send(message) {
      ensureReady();
      try {
        const chatId = await chatIdOf(message.to);
        const options: WAWebJS.MessageSendOptions = {};
        if (message.replyToProviderMessageId) {
          const quoted = await findMessage(message.to, message.replyToProviderMessageId).catch(() => null);
          // A quote WhatsApp Web no longer has is left out, as the library itself does (ignoreQuoteErrors).
          if (quoted) options.quotedMessageId = quoted.id._serialized;
        }
        let content: string | WAWebJS.MessageMedia = message.body;
        if (message.media) {
          const { data, mime, name } = message.media;
          content = new lib.MessageMedia(mime, data.toString('base64'), name, data.length);
          if (message.mediaType === 'ptt') options.sendAudioAsVoice = true;
          else if (message.mediaType === 'sticker') options.sendMediaAsSticker = true;
          else if (message.mediaType === 'application') options.sendMediaAsDocument = true;
          if (message.body && message.mediaType !== 'ptt' && message.mediaType !== 'sticker') {
            options.caption = message.body;
          }
        } else if (!message.body) {
          throw new ProviderError('whatsapp-web.js: empty message', true);
        }
        const result = await sendRaw(chatId, content, options);
        if (!result) throw new ProviderError('whatsapp-web.js send: chat not found', true);
        const ack = result.ack >= 1 && result.ack <= 3 ? (result.ack as 1 | 2 | 3) : 0;
        return {
          providerMessageId: result.id.id,
          ack,
          timestamp: result.timestamp ? result.timestamp * 1000 : Date.now(),
        };
      } catch (error) {
        throw providerFailure('send', error);
      }
    },

    async edit(to, providerMessageId, body) {
      const message = await messageFor(to, providerMessageId, 'edit');
      const edited = await message.edit(body).catch((error: unknown) => {
        throw providerFailure('edit', error);
      });
      if (!edited) throw new ProviderError('whatsapp-web.js edit: the message cannot be edited', true);
    },

    async delete(to, providerMessageId) {
      const message = await messageFor(to, providerMessageId, 'delete');
      await message.delete(true).catch((error: unknown) => {
        throw providerFailure('delete', error);
      });
    },

    async react(to, providerMessageId, emoji) {
      const message = await messageFor(to, providerMessageId, 'react');
      await message.react(emoji).catch((error: unknown) => {
        throw providerFailure('react', error);
      });
    },

    async downloadMedia(ref, maxBytes) {
      ensureReady();
      try {
        const message = await client.getMessageById(ref);
        if (!message) throw new ProviderError('whatsapp-web.js download: message not found', true);
        const media = await message.downloadMedia();
        if (!media) throw new ProviderError('whatsapp-web.js download: media gone', true);
        if (Math.floor((media.data.length * 3) / 4) > maxBytes + 2) {
          throw new ProviderError('whatsapp-web.js download: file too large', true);
        }
        const data = Buffer.from(media.data, 'base64');
        if (data.length > maxBytes) throw new ProviderError('whatsapp-web.js download: file too large', true);
        return { data, mime: media.mimetype || null, name: media.filename ?? null };
      } catch (error) {
        throw providerFailure('download', error);
      }
    },

    async checkNumber(number) {
      ensureReady();
      try {
        const id = await numberId(number);
        return id ? { exists: true, number: normalizeWhatsAppNumber(id.user) } : { exists: false, number: null };
      } catch (error) {
        throw providerFailure('checkNumber', error);
      }
    },

    async profilePicture(chatId) {
      ensureReady();
      try {
        // The library answers undefined when WhatsApp refuses the query (no picture, privacy).
        return (await client.getProfilePicUrl(await chatIdOf(chatId))) ?? null;
      } catch (error) {
        if (error instanceof ProviderError && error.permanent) return null;
        throw providerFailure('profilePicture', error);
      }
    },

    async sendText(chatId, text) {
      await sendRaw(chatId, text, {});
    },
  };
}
