/**
 * Display helpers of the chat (client-contract §20.3): day labels, sizes, location and vCard payloads; links and
 * WhatsApp's formatting live in whatsapp-format.ts.
 */
import dayjs from 'dayjs';
import { formatDateTime } from '../../../lib/dates';
import { MEDIA_ALLOWED_MIME_PREFIXES, MEDIA_MAX_BYTES, type MessageDto, type MessageMediaType } from '@conversa/shared';

/**
 * Templates, notes, transcriptions and transfer notices take no reply, forward, reaction, edit or deletion (§20.3:
 * "the last five families", `templates`/`templateMessage` being one).
 */
const PASSIVE_TYPES: MessageMediaType[] = ['templates', 'notes', 'transcription', 'transfer'];
export const isActionable = (message: MessageDto): boolean => !PASSIVE_TYPES.includes(message.mediaType);

export const MEDIA_TYPES_WITH_FILE: MessageMediaType[] = ['image', 'video', 'audio', 'ptt', 'application', 'sticker'];
export const hasFile = (message: MessageDto): boolean => MEDIA_TYPES_WITH_FILE.includes(message.mediaType);

/** The text shown: the edition replaces the body. */
export const messageText = (message: Pick<MessageDto, 'body' | 'edition'>): string => message.edition ?? message.body;

export type DayLabel = { kind: 'today' } | { kind: 'yesterday' } | { kind: 'date'; date: string };

export function dayLabel(createdAt: string, now: Date = new Date()): DayLabel {
  const day = dayjs(createdAt).startOf('day');
  const today = dayjs(now).startOf('day');
  if (day.isSame(today)) return { kind: 'today' };
  if (day.isSame(today.subtract(1, 'day'))) return { kind: 'yesterday' };
  return { kind: 'date', date: day.format('DD/MM/YYYY') };
}

export const sameDay = (a: string, b: string): boolean => dayjs(a).isSame(dayjs(b), 'day');
export const timeOf = (iso: string): string => dayjs(iso).format('HH:mm');
/** A date-time as product-spec §1 displays them: dd/MM/yyyy HH:mm:ss (lib/dates.ts). */
export const dateTimeOf = (iso: string | null | undefined): string => (iso ? formatDateTime(iso) : '');

export function formatFileSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export {
  FORMAT_MAX_LINE_LENGTH,
  richTextParts,
  splitLinks,
  whatsappStyles,
  type RichPart,
  type StyledPart,
  type TextPart,
} from './whatsapp-format';

export interface LocationPayload {
  latitude: number;
  longitude: number;
  name?: string;
}

/** `meta` of a location: JSON `{latitude, longitude, name?}`; null when it is not one. */
export function parseLocation(meta: string | null): LocationPayload | null {
  if (!meta) return null;
  try {
    const value = JSON.parse(meta) as Record<string, unknown>;
    const latitude = Number(value.latitude);
    const longitude = Number(value.longitude);
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
    return { latitude, longitude, name: typeof value.name === 'string' && value.name ? value.name : undefined };
  } catch {
    return null;
  }
}

export const openStreetMapUrl = ({ latitude, longitude }: LocationPayload): string =>
  `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;

export interface VcardPayload {
  name: string;
  number: string;
}

/** The name (FN) and first number (TEL, waid preferred) of a vCard text. */
export function parseVcard(text: string | null): VcardPayload | null {
  if (!text || !/BEGIN:VCARD/i.test(text)) return null;
  const name = /^FN[^:]*:(.*)$/im.exec(text)?.[1]?.trim() ?? '';
  const telLine = /^(?:item\d+\.)?TEL([^:]*):(.*)$/im.exec(text);
  const waid = telLine?.[1] ? /waid=(\d+)/i.exec(telLine[1])?.[1] : undefined;
  const number = (waid ?? telLine?.[2] ?? '').trim();
  return name || number ? { name, number } : null;
}

/** Client-side check before upload: MEDIA_MAX_BYTES and the allowed MIME prefixes. */
export const isAcceptedFile = (file: File): boolean =>
  file.size > 0 &&
  file.size <= MEDIA_MAX_BYTES &&
  MEDIA_ALLOWED_MIME_PREFIXES.some((prefix) => file.type.toLowerCase().startsWith(prefix));

/** The initials shown when a contact has no picture. */
export const initialsOf = (name: string): string =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
