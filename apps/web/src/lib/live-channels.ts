/**
 * Channel types with a live WhatsApp session the server can act on (participants, mentions, phone-book and group
 * sync, number checks, older history): the server's LIVE_CHANNEL_TYPES. Other types answer ERR_CHANNEL_TYPE_UNSUPPORTED,
 * so the screens do not offer these tools for them.
 */
export const LIVE_CHANNEL_TYPES: readonly string[] = ['baileys', 'whatsapp', 'evo', 'meow'];

export const isLiveChannelType = (type: string | null | undefined): boolean =>
  !!type && LIVE_CHANNEL_TYPES.includes(type);

/** The largest history import the server accepts in one request. */
export const SYNC_LIMIT_MAX = 100_000;

/**
 * The number of messages typed in a history import dialog: a positive whole number (product-spec "Sync history").
 * Null for anything else: empty, 0, negatives, fractions, text; 'max' past the server's limit.
 */
export function parseSyncLimit(value: string): number | 'max' | null {
  const text = value.trim();
  if (!/^\d+$/.test(text)) return null;
  const limit = Number(text);
  if (limit < 1) return null;
  return limit > SYNC_LIMIT_MAX ? 'max' : limit;
}
