/**
 * The ticket row's preview (issue 23 item 6). For a message without text or file name the server stores its media type
 * as the preview (`location`, `sticker`, `ptt`...: ingestion and sends alike); those raw codes are shown as the chat's
 * translated media labels with a pictogram. Any other text is shown as it is. `chat` is not mapped: a text message
 * always has a body, so a preview "chat" is a customer's word.
 */
import { MESSAGE_MEDIA_TYPES, type MessageMediaType } from '@conversa/shared';

export const PREVIEW_ICONS: Record<Exclude<MessageMediaType, 'chat'>, string> = {
  image: '📷',
  video: '🎥',
  audio: '🎵',
  ptt: '🎤',
  application: '📄',
  sticker: '💟',
  vcard: '👤',
  location: '📍',
  notes: '📝',
  transcription: '📝',
  transfer: '🔀',
  templates: '📋',
  button: '🔘',
  list: '📋',
  interactive: '🔘',
  button_reply: '↩️',
  unsupported: '⚠️',
};

export type TicketPreview = { kind: 'text'; text: string } | { kind: 'media'; icon: string; labelKey: string };

const isPreviewMediaType = (value: string): value is Exclude<MessageMediaType, 'chat'> =>
  value !== 'chat' && (MESSAGE_MEDIA_TYPES as readonly string[]).includes(value);

export function ticketPreview(lastMessage: string | null | undefined): TicketPreview {
  const text = lastMessage ?? '';
  if (isPreviewMediaType(text)) {
    return { kind: 'media', icon: PREVIEW_ICONS[text], labelKey: `chat.mediaTypes.${text}` };
  }
  return { kind: 'text', text };
}
