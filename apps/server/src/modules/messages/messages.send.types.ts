/**
 * What a send stores: the values of an outbound message and its uploaded media. Apart from messages.send.ts so the
 * upload and quick-message edges, which the send uses, name them without importing the send back.
 */
import type { MessageMediaType, OutboundPayload } from '@conversa/shared';

export interface StoredUploadMedia {
  key: string;
  name: string;
  mime: string;
  size: number;
  mediaType: MessageMediaType;
  isSticker: boolean;
}

export interface OutboundValues {
  body: string;
  quotedMsgId: number | null;
  idFront: string | null;
  sendType: string | null;
  media: StoredUploadMedia | null;
  /** An agent's own text (POST /messages JSON without sendType): signed when the signature rule says so. */
  sign?: boolean;
  /** Official channels: a template, buttons, a list or a file by URL (stored on the message for the send job). */
  payload?: OutboundPayload | null;
  /** The stored media type when it is not the upload's (templates, button, list, a file by URL). */
  mediaType?: MessageMediaType;
}
