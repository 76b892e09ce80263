/**
 * Message content across the socket (baileys.driver.ts): an OutboundMessage becomes the socket content baileys sends
 * (text, image, video, audio or voice note, sticker, document), and a MediaRef the parser stored
 * (baileys.parse-content.ts) is downloaded and decrypted by the library on any node, no session needed, within the
 * caller's size limit.
 */
import type { Readable } from 'node:stream';
import { downloadContentFromMessage, type AnyMessageContent } from 'baileys';
import type { OutboundMessage } from '../../channels.adapter.js';
import { ProviderError } from '../../channels.adapter.js';
import { providerError } from './baileys.driver-errors.js';
import { mediaRefSchema } from './baileys.parse.js';

async function readLimited(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      stream.destroy();
      throw new ProviderError(`baileys download: media larger than ${maxBytes} bytes`, true);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Stateless download (any node): the ref holds the URL/direct path and the media key; decrypted by the library. */
export async function downloadBaileysMedia(
  ref: string,
  maxBytes: number,
): Promise<{ data: Buffer; mime: string | null; name: string | null }> {
  let parsed;
  try {
    parsed = mediaRefSchema.parse(JSON.parse(ref));
  } catch {
    throw new ProviderError('baileys download: not a Baileys media reference', true);
  }
  try {
    const stream = await downloadContentFromMessage(
      { url: parsed.url, directPath: parsed.directPath, mediaKey: Buffer.from(parsed.mediaKey, 'base64') },
      parsed.type,
    );
    const data = await readLimited(stream, maxBytes);
    return { data, mime: parsed.mimetype, name: parsed.fileName };
  } catch (error) {
    throw providerError('download', error);
  }
}

/** The socket content of an outbound message (media types without a file are refused). */
export function contentFor(message: OutboundMessage): AnyMessageContent {
  const caption = message.body || undefined;
  if (message.mediaType === 'chat' || !message.media) {
    if (message.mediaType !== 'chat' && message.mediaType !== 'vcard' && message.mediaType !== 'location') {
      throw new ProviderError(`baileys send: ${message.mediaType} without a file`, true);
    }
    if (!message.body) throw new ProviderError('baileys send: empty message', true);
    return { text: message.body };
  }
  const { data, mime, name } = message.media;
  switch (message.mediaType) {
    case 'image':
      return { image: data, caption, mimetype: mime };
    case 'video':
      return { video: data, caption, mimetype: mime };
    case 'audio':
      return { audio: data, mimetype: mime, ptt: false };
    case 'ptt':
      return { audio: data, mimetype: mime, ptt: true };
    case 'sticker':
      return { sticker: data, mimetype: mime };
    default:
      return { document: data, mimetype: mime, fileName: name, caption };
  }
}
