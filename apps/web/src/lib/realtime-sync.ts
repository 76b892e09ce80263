/**
 * The one place where server socket events become TanStack Query cache updates (STYLE.md: "update the cache from the
 * event"). Each event either patches the cached data in place or invalidates exactly the queries it affects.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  contactDtoSchema,
  type chatPrivadoUserSchema,
  type ContactImportProgress,
  type ServerToClientEvents,
  type SettingDto,
  type UserOnlinePayload,
} from '@conversa/shared';
import { patchCachedContact, recordImportProgress, removeCachedContact } from './contacts-cache';
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

type ContactListEvent = Parameters<ServerToClientEvents[`${number}:contactList`]>[0];

/** New contacts arriving in a burst (an import, a phone-book sync) refresh the loaded lists once, not per contact. */
const CONTACT_LISTS_REFRESH_MS = 1000;

/**
 * `{T}:contactList`: updates patch the rows of loaded pages, deletes remove them; a created contact no loaded page
 * holds refreshes the lists (where it sorts is the server's business), coalesced. `{T}:contactImport`: the progress
 * of each import goes to its own cache entry; a finished import refreshes the lists once.
 */
function startContactsSync(socket: AppSocket, queryClient: QueryClient, T: number): () => void {
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  const refreshLists = () => {
    refreshTimer ??= setTimeout(() => {
      refreshTimer = undefined;
      void queryClient.invalidateQueries({ queryKey: queryKeys.contactsLists });
    }, CONTACT_LISTS_REFRESH_MS);
  };
  const onContactList = (event: ContactListEvent) => {
    if (event.type === 'contact:delete') {
      removeCachedContact(queryClient, event.payload.id);
      return;
    }
    const contact = contactDtoSchema.safeParse(event.payload);
    if (!contact.success) return;
    const shown = patchCachedContact(queryClient, contact.data);
    if (!shown && event.type === 'contact:create') refreshLists();
  };
  const onContactImport = (event: ContactImportProgress) => {
    const before = queryClient.getQueryData<ContactImportProgress>(queryKeys.contactImport(event.importId));
    const after = recordImportProgress(queryClient, event);
    if (after.action === 'done' && before?.action !== 'done') {
      void queryClient.invalidateQueries({ queryKey: queryKeys.contactsLists });
      void queryClient.invalidateQueries({ queryKey: queryKeys.contactDuplicates, exact: true });
    }
  };
  socket.on(`${T}:contactList`, onContactList);
  socket.on(`${T}:contactImport`, onContactImport);
  return () => {
    clearTimeout(refreshTimer);
    socket.off(`${T}:contactList`, onContactList);
    socket.off(`${T}:contactImport`, onContactImport);
  };
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
  const stopContacts = startContactsSync(socket, queryClient, T);
  return () => {
    stopContacts();
    socket.off(`${T}:user-online`, onUserOnline);
    socket.off(`${T}:updateStatusUser`, onUpdateStatusUser);
    socket.off(`${T}:chat:updateOnlineBubbles`, onOnlineBubbles);
    socket.off(`${T}:settings`, onSettings);
    socket.off(`${T}:users`, onUsers);
  };
}
