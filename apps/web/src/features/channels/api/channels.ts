/** Channel calls (client-contract §7.1): the list, save, delete and the session actions (connect, restart, disconnect). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { channelDtoSchema, channelSessionStateSchema, type ChannelDto, type ChannelInput } from '@conversa/shared';
import { api } from '../../../lib/api';
import { patchCachedSession, removeCachedChannel, upsertCachedChannel } from '../../../lib/channels-cache';
import { queryKeys } from '../../../lib/query-keys';

const channelListSchema = z.array(channelDtoSchema);

/** GET /whatsapp/ -> bare array. Kept current by realtime-sync (`{T}:whatsapp`, `{T}:whatsappSession`). */
export const useChannels = () =>
  useQuery({
    queryKey: queryKeys.channels,
    queryFn: async ({ signal }) => channelListSchema.parse(await api.get('/whatsapp/', { signal, background: true })),
  });

export interface SaveChannelVariables {
  /** Absent: create. */
  id?: number;
  input: ChannelInput;
}

/**
 * POST /whatsapp or PUT /whatsapp/{id}. The contract promises no body back: a channel in the answer goes into the
 * list at once, otherwise the list is read again.
 */
export function useSaveChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: SaveChannelVariables): Promise<unknown> =>
      id === undefined ? api.post('/whatsapp', input) : api.put(`/whatsapp/${id}`, input),
    onSuccess: (body) => {
      const channel = channelDtoSchema.safeParse(body);
      if (channel.success) upsertCachedChannel(queryClient, channel.data);
      else void queryClient.invalidateQueries({ queryKey: queryKeys.channels, exact: true });
    },
    meta: { handlesErrors: true },
  });
}

/** DELETE /whatsapp/{id}. */
export function useDeleteChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<void>(`/whatsapp/${id}`),
    onSuccess: (_body, id) => removeCachedChannel(queryClient, id),
    meta: { handlesErrors: true },
  });
}

/** The /whatsappsession calls answer the channel or its session state: either goes into the list at once. */
function applySessionAnswer(queryClient: ReturnType<typeof useQueryClient>, body: unknown): void {
  const channel = channelDtoSchema.safeParse(body);
  if (channel.success) {
    upsertCachedChannel(queryClient, channel.data);
    return;
  }
  const session = channelSessionStateSchema.safeParse(body);
  if (session.success) patchCachedSession(queryClient, session.data);
}

export type SessionAction = 'connect' | 'restart' | 'disconnect';

/**
 * POST (start), PUT `{ id, isQrcode: true }` (restart / new QR code) or DELETE (disconnect) /whatsappsession/{id}.
 * The new status arrives by socket; a channel in the answer is applied at once.
 */
export function useChannelSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ channel, action }: { channel: ChannelDto; action: SessionAction }): Promise<unknown> => {
      const path = `/whatsappsession/${channel.id}`;
      if (action === 'connect') return api.post(path);
      if (action === 'restart') return api.put(path, { id: channel.id, isQrcode: true });
      return api.delete(path);
    },
    onSuccess: (body) => applySessionAnswer(queryClient, body),
    meta: { handlesErrors: true },
  });
}

/** A QR channel's login: a new QR code, or a pairing code for a phone number (country code and number, digits). */
export type QrLoginRequest = { kind: 'qrcode' } | { kind: 'pairing'; phoneNumber: string };

/**
 * PUT /whatsappsession/{id} `{ id, isQrcode: true }` or `{ id, pairingNumber }`; POST (start) when the session
 * has ended (TIMEOUT, CONFLICT, DISCONNECTED, DESTROYED) and a new QR code is asked for. Statuses, the QR code and
 * the pairing code then arrive by socket.
 */
export function useQrLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ channel, request }: { channel: ChannelDto; request: QrLoginRequest }): Promise<unknown> => {
      const path = `/whatsappsession/${channel.id}`;
      if (request.kind === 'pairing') return api.put(path, { id: channel.id, pairingNumber: request.phoneNumber });
      if (SESSION_ENDED.includes(channel.status)) return api.post(path);
      return api.put(path, { id: channel.id, isQrcode: true });
    },
    onSuccess: (body) => applySessionAnswer(queryClient, body),
    meta: { handlesErrors: true },
  });
}

const SESSION_ENDED: readonly ChannelDto['status'][] = ['TIMEOUT', 'CONFLICT', 'DISCONNECTED', 'DESTROYED'];
