/**
 * The one place where server socket events become TanStack Query cache updates (STYLE.md: "update the cache from the
 * event"). Each event either patches the cached data in place or invalidates exactly the queries it affects.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { chatPrivadoUserSchema, SettingDto, UserOnlinePayload } from '@conversa/shared';
import { queryKeys } from './query-keys';
import type { AppSocket } from './socket';

export type OnlineTeamUser = z.infer<typeof chatPrivadoUserSchema>;
export interface OnlineTeamResponse {
  users: OnlineTeamUser[];
}

function setOnline(queryClient: QueryClient, isOnline: (user: OnlineTeamUser) => boolean | undefined): void {
  queryClient.setQueryData<OnlineTeamResponse>(queryKeys.onlineTeam, (data) => {
    if (!data) return data;
    let changed = false;
    const users = data.users.map((user) => {
      const next = isOnline(user);
      if (next === undefined || next === user.isOnline) return user;
      changed = true;
      return { ...user, isOnline: next };
    });
    return changed ? { ...data, users } : data;
  });
}

/** The server follows each presence change with updateStatusUser; a patch this recent already holds its news. */
const PRESENCE_PATCH_WINDOW_MS = 2000;

export function startRealtimeSync(socket: AppSocket, queryClient: QueryClient, tenantId: number): () => void {
  let presencePatchedAt = -Infinity;
  const onUserOnline = ({ data }: UserOnlinePayload) => {
    presencePatchedAt = Date.now();
    const team = queryClient.getQueryData<OnlineTeamResponse>(queryKeys.onlineTeam);
    if (team && !team.users.some((user) => user.id === data.userId)) {
      // Someone we do not list yet (new user): read the team again, once.
      void queryClient.invalidateQueries({ queryKey: queryKeys.onlineTeam, exact: true });
      return;
    }
    setOnline(queryClient, (user) => (user.id === data.userId ? data.isOnline : undefined));
  };
  const onUpdateStatusUser = () => {
    if (Date.now() - presencePatchedAt < PRESENCE_PATCH_WINDOW_MS) return;
    void queryClient.invalidateQueries({ queryKey: queryKeys.onlineTeam, exact: true });
  };
  const onOnlineBubbles = (online: { userId: number }[]) => {
    presencePatchedAt = Date.now();
    const ids = new Set(online.map((user) => user.userId));
    setOnline(queryClient, (user) => ids.has(user.id));
  };
  const onSettings = ({ setting }: { setting: SettingDto }) => {
    queryClient.setQueryData<SettingDto[]>(queryKeys.settings, (settings) => {
      if (!settings) return settings;
      const exists = settings.some((item) => item.key === setting.key);
      return exists
        ? settings.map((item) => (item.key === setting.key ? { ...item, value: setting.value } : item))
        : [...settings, setting];
    });
  };
  const onUsers = ({ action, userId }: { action: 'update' | 'delete' | 'create'; userId: number }) => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.usersLists });
    void queryClient.invalidateQueries({ queryKey: queryKeys.onlineTeam, exact: true });
    if (action === 'update') void queryClient.invalidateQueries({ queryKey: queryKeys.user(userId), exact: true });
    else {
      void queryClient.invalidateQueries({ queryKey: queryKeys.usersCount, exact: true });
      if (action === 'delete') queryClient.removeQueries({ queryKey: queryKeys.user(userId), exact: true });
    }
  };

  const T = tenantId;
  socket.on(`${T}:user-online`, onUserOnline);
  socket.on(`${T}:updateStatusUser`, onUpdateStatusUser);
  socket.on(`${T}:chat:updateOnlineBubbles`, onOnlineBubbles);
  socket.on(`${T}:settings`, onSettings);
  socket.on(`${T}:users`, onUsers);
  return () => {
    socket.off(`${T}:user-online`, onUserOnline);
    socket.off(`${T}:updateStatusUser`, onUpdateStatusUser);
    socket.off(`${T}:chat:updateOnlineBubbles`, onOnlineBubbles);
    socket.off(`${T}:settings`, onSettings);
    socket.off(`${T}:users`, onUsers);
  };
}
