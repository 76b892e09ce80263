/**
 * The caller's notifications (client-contract §16) for the header's bell: the newest page with the unread count,
 * marking read, and `{T}:notification` keeping it live (registered through lib/realtime-registry.ts).
 */
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notifications as toasts } from '@mantine/notifications';
import {
  notificationDtoSchema,
  notificationListSchema,
  type NotificationDto,
  type NotificationEvent,
} from '@conversa/shared';
import { api } from '../../lib/api';
import { i18next } from '../../lib/i18n';
import { registerRealtimeHandler, type RealtimeHandler } from '../../lib/realtime-registry';

export const NOTIFICATIONS_KEY = ['notifications', 'bell'] as const;
const BELL_ROWS = 20;

export const useBellNotifications = () =>
  useQuery({
    queryKey: NOTIFICATIONS_KEY,
    queryFn: async () =>
      notificationListSchema.parse(
        await api.get('/notifications', { query: { pageNumber: 1, rowsPerPage: BELL_ROWS }, background: true }),
      ),
  });

/** The text shown for a notification: a mention is written in the reader's language, anything else as stored. */
export function notificationText(notification: NotificationDto): string {
  const { data } = notification;
  if (data.kind === 'mention' && data.ticketId !== undefined) {
    return i18next.t('notifications.mention', {
      author: data.authorName ?? '',
      ticket: data.ticketId,
      excerpt: data.excerpt ?? '',
    });
  }
  return notification.message;
}

const bellRealtime: RealtimeHandler = (socket, queryClient, T) => {
  const onNotification = (event: NotificationEvent) => {
    if (event.action === 'create') {
      toasts.show({
        title: i18next.t('notifications.new'),
        message: notificationText(event.notification),
        color: 'blue',
        autoClose: 6000,
      });
    }
    void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
  };
  socket.on(`${T}:notification`, onNotification);
  return () => {
    socket.off(`${T}:notification`, onNotification);
  };
};

export function useBellLive(): void {
  useEffect(() => registerRealtimeHandler(bellRealtime), []);
}

export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      notificationDtoSchema.parse(await api.put(`/notifications/${id}`, { isRead: true })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.put<{ updated: number }>('/notifications/readAll'),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
