/**
 * The channels list in the cache (`queryKeys.channels`, the bare array of GET /whatsapp/): patched in place by the
 * mutations of the channels screen and by realtime-sync from `{T}:whatsapp` and `{T}:whatsappSession`.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ChannelDto, ChannelSessionState } from '@conversa/shared';
import { queryKeys } from './query-keys';

/** Replaces the channel with the same id, or appends it; nothing when the list is not loaded. */
export function upsertCachedChannel(queryClient: QueryClient, channel: ChannelDto): void {
  queryClient.setQueryData<ChannelDto[]>(queryKeys.channels, (list) => {
    if (!list) return list;
    const exists = list.some((item) => item.id === channel.id);
    return exists ? list.map((item) => (item.id === channel.id ? channel : item)) : [...list, channel];
  });
}

export function removeCachedChannel(queryClient: QueryClient, id: number): void {
  queryClient.setQueryData<ChannelDto[]>(queryKeys.channels, (list) => {
    if (!list || !list.some((item) => item.id === id)) return list;
    return list.filter((item) => item.id !== id);
  });
}

/** A session change (status, QR code, retries) of a channel the list holds. */
export function patchCachedSession(queryClient: QueryClient, session: ChannelSessionState): void {
  queryClient.setQueryData<ChannelDto[]>(queryKeys.channels, (list) => {
    if (!list || !list.some((item) => item.id === session.id)) return list;
    return list.map((item) =>
      item.id === session.id
        ? {
            ...item,
            name: session.name ?? item.name,
            number: session.number !== undefined ? session.number : item.number,
            status: session.status,
            qrcode: session.qrcode ?? null,
            pairingCode: session.pairingCode ?? null,
            retries: session.retries ?? item.retries,
            updatedAt: session.updatedAt ?? item.updatedAt,
          }
        : item,
    );
  });
}
