/** How a ticket row shows its time, avatar and channel. */
import dayjs from 'dayjs';

/** HH:mm today, DD/MM on other days (epoch milliseconds, client-contract §20.1). */
export function formatTicketTime(epochMs: number | null, now: Date = new Date()): string {
  if (epochMs === null) return '';
  const date = dayjs(epochMs);
  if (!date.isValid()) return '';
  return date.isSame(now, 'day') ? date.format('HH:mm') : date.format('DD/MM');
}

/** Up to two initials of a name (first and last word), for avatars without a picture. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase();
}

/** Channel types (client-contract §7.1) grouped by the logo shown; `hub_*` variants by their suffix. */
export type ChannelFamily = 'whatsapp' | 'telegram' | 'instagram' | 'messenger' | 'email' | 'other';

export function channelFamily(channel: string): ChannelFamily {
  if (['waba', 'baileys', 'whatsapp', 'meow', 'evo', 'hub'].includes(channel)) return 'whatsapp';
  if (channel === 'telegram' || channel === 'hub_telegram') return 'telegram';
  if (channel === 'instagram' || channel === 'hub_instagram') return 'instagram';
  if (channel === 'messenger' || channel === 'hub_facebook') return 'messenger';
  if (channel === 'hub_email') return 'email';
  return 'other';
}
