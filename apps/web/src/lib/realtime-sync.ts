/**
 * The live session's dispatcher: server socket events become TanStack Query cache updates (STYLE.md: "update the
 * cache from the event"); each event either patches the cached data in place or invalidates exactly the queries it
 * affects. The events of data lib/ keeps (presence, settings, users, contacts, channels, queues, tags) are handled
 * here; a feature's own events by the handlers it registers (realtime-registry.ts), started with the session. lib/
 * imports no feature. On every connection the live data is read again (catchUp).
 */
import { notifications, type NotificationData } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  CHANNEL_STATUSES,
  channelDtoSchema,
  contactDtoSchema,
  type ChannelSessionState,
  type chatPrivadoUserSchema,
  type ContactImportProgress,
  type ServerToClientEvents,
  type SettingDto,
  type UserOnlinePayload,
} from '@conversa/shared';
import { patchCachedSession, removeCachedChannel, upsertCachedChannel } from './channels-cache';
import { patchCachedContact, recordImportProgress, removeCachedContact } from './contacts-cache';
import { i18next } from './i18n';
import { startRegisteredHandlers } from './realtime-registry';
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

type WhatsappEvent = Parameters<ServerToClientEvents[`${number}:whatsapp`]>[0];

const isChannelStatus = (value: unknown): value is ChannelSessionState['status'] =>
  (CHANNEL_STATUSES as readonly unknown[]).includes(value);

/**
 * `{T}:whatsapp` (a channel saved or deleted) and `{T}:whatsappSession` (live status and QR code) patch the cached
 * channel list in place: the channels screen never re-reads the list for them.
 */
export function startChannelsSync(socket: AppSocket, queryClient: QueryClient, T: number): () => void {
  const onWhatsapp = (event: WhatsappEvent) => {
    if (event.action === 'delete') {
      removeCachedChannel(queryClient, Number(event.whatsappId));
      return;
    }
    const channel = channelDtoSchema.safeParse(event.whatsapp);
    if (channel.success) upsertCachedChannel(queryClient, channel.data);
  };
  const onSession = (event: { action: string; session?: ChannelSessionState }) => {
    // loadingscreen and readySession are progress toasts (startSessionNotices).
    if (event.action !== 'update' || !event.session || !isChannelStatus(event.session.status)) return;
    patchCachedSession(queryClient, event.session);
  };
  socket.on(`${T}:whatsapp`, onWhatsapp);
  socket.on(`${T}:whatsappSession`, onSession);
  return () => {
    socket.off(`${T}:whatsapp`, onWhatsapp);
    socket.off(`${T}:whatsappSession`, onSession);
  };
}

const sessionSyncSchema = z.object({
  action: z.literal('loadingscreen'),
  session: z.object({ id: z.number().optional(), name: z.string() }),
  percent: z.coerce.number(),
});
const sessionReadySchema = z.object({
  action: z.literal('readySession'),
  session: z.object({ id: z.number().optional(), name: z.string(), number: z.string().nullish() }),
});
const batterySchema = z.object({ batteryInfo: z.object({ sessionName: z.string(), battery: z.coerce.number() }) });
const importProgressSchema = z.object({
  action: z.literal('update'),
  status: z.object({ this: z.coerce.number(), all: z.coerce.number() }),
});

/** Below this charge (%) a session's phone battery is reported. */
export const LOW_BATTERY_PERCENT = 20;

/** One toast per id, updated in place while it is shown (Mantine's show ignores an id already shown). */
function showProgress(notice: NotificationData & { id: string }): void {
  notifications.update(notice);
  notifications.show(notice);
}

/**
 * Progress toasts of QR sessions (client-contract §19; payloads checked here, as every socket input is): `{T}:whatsappSession` loadingscreen ("syncing n %", one toast
 * per session) and readySession ("connected", in the same toast), `{T}:change_battery` below 20 %, and
 * `{T}:importMessages` (one toast; this = all = -1 means finished).
 */
export function startSessionNotices(socket: AppSocket, T: number): () => void {
  const t = i18next.t.bind(i18next);
  const syncId = (session: { id?: number; name: string }) => `session-sync-${T}-${session.id ?? session.name}`;
  const onSession = (payload: unknown) => {
    const sync = sessionSyncSchema.safeParse(payload);
    if (sync.success) {
      const { session } = sync.data;
      const percent = Math.min(100, Math.max(0, Math.round(sync.data.percent)));
      const done = percent >= 100;
      showProgress({
        id: syncId(session),
        title: session.name,
        message: t('channels.realtime.syncing', { percent }),
        loading: !done,
        autoClose: done ? 4000 : false,
      });
      return;
    }
    const ready = sessionReadySchema.safeParse(payload);
    if (!ready.success) return;
    const { session } = ready.data;
    showProgress({
      id: syncId(session),
      title: session.name,
      message: session.number
        ? t('channels.realtime.readyNumber', { name: session.name, number: session.number })
        : t('channels.realtime.ready', { name: session.name }),
      color: 'teal',
      loading: false,
      autoClose: 4000,
    });
  };
  const onBattery = (payload: unknown) => {
    const parsed = batterySchema.safeParse(payload);
    if (!parsed.success || parsed.data.batteryInfo.battery >= LOW_BATTERY_PERCENT) return;
    const { sessionName, battery } = parsed.data.batteryInfo;
    showProgress({
      id: `battery-${T}-${sessionName}`,
      message: t('channels.realtime.lowBattery', { name: sessionName, battery: Math.max(0, Math.round(battery)) }),
      color: 'yellow',
      autoClose: 8000,
    });
  };
  const onImport = (payload: unknown) => {
    const parsed = importProgressSchema.safeParse(payload);
    if (!parsed.success) return;
    const { this: current, all } = parsed.data.status;
    const done = current === -1 && all === -1;
    showProgress({
      id: `import-messages-${T}`,
      title: t('channels.realtime.importTitle'),
      message: done
        ? t('channels.realtime.importDone')
        : t('channels.realtime.importProgress', { current, total: all }),
      color: done ? 'teal' : 'blue',
      loading: !done,
      autoClose: done ? 4000 : false,
    });
  };
  socket.on(`${T}:whatsappSession`, onSession);
  socket.on(`${T}:change_battery`, onBattery);
  socket.on(`${T}:importMessages`, onImport);
  return () => {
    socket.off(`${T}:whatsappSession`, onSession);
    socket.off(`${T}:change_battery`, onBattery);
    socket.off(`${T}:importMessages`, onImport);
  };
}

/**
 * `{T}:queue`, `{T}:kanban` and `{T}:tag`: the queue, lane and tag lists (screens and pickers) are read again. A tag changed in place
 * (renamed, recoloured, switched off) also re-reads the loaded contacts and tickets, which carry its name and colour.
 */
export function startOrganisationSync(socket: AppSocket, queryClient: QueryClient, T: number): () => void {
  const onQueue = () => void queryClient.invalidateQueries({ queryKey: queryKeys.queues });
  const onKanban = () => void queryClient.invalidateQueries({ queryKey: queryKeys.kanbans });
  const onTag = ({ action }: { action: 'create' | 'update' | 'delete' }) => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.tags });
    if (action !== 'update') return;
    void queryClient.invalidateQueries({ queryKey: queryKeys.contactsAll });
    void queryClient.invalidateQueries({ queryKey: queryKeys.ticketsLists });
    void queryClient.invalidateQueries({ queryKey: ['tickets', 'detail'] });
  };
  socket.on(`${T}:queue`, onQueue);
  socket.on(`${T}:kanban`, onKanban);
  socket.on(`${T}:tag`, onTag);
  return () => {
    socket.off(`${T}:queue`, onQueue);
    socket.off(`${T}:kanban`, onKanban);
    socket.off(`${T}:tag`, onTag);
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

  const stopOrganisation = startOrganisationSync(socket, queryClient, tenantId);
  const T = tenantId;
  const onConnect = () => catchUp(queryClient);
  socket.on('connect', onConnect);
  socket.on(`${T}:user-online`, onUserOnline);
  socket.on(`${T}:updateStatusUser`, onUpdateStatusUser);
  socket.on(`${T}:chat:updateOnlineBubbles`, onOnlineBubbles);
  socket.on(`${T}:settings`, onSettings);
  socket.on(`${T}:users`, onUsers);
  const stopContacts = startContactsSync(socket, queryClient, T);
  const stopChannels = startChannelsSync(socket, queryClient, T);
  const stopNotices = startSessionNotices(socket, T);
  // Handlers the features register for their own events (realtime-registry.ts): tickets, chat, boards, notes, ...
  const stopRegistered = startRegisteredHandlers(socket, queryClient, T);
  return () => {
    stopRegistered();
    stopNotices();
    stopOrganisation();
    stopContacts();
    stopChannels();
    socket.off(`${T}:user-online`, onUserOnline);
    socket.off(`${T}:updateStatusUser`, onUpdateStatusUser);
    socket.off(`${T}:chat:updateOnlineBubbles`, onOnlineBubbles);
    socket.off(`${T}:settings`, onSettings);
    socket.off(`${T}:users`, onUsers);
    socket.off('connect', onConnect);
  };
}

/**
 * What socket events keep fresh: the data a screen may have read before the socket joined its rooms. The keys are
 * lib's (query-keys.ts), so the registered handlers' data is covered too: ticketsAll holds the tickets feature's lists,
 * tab totals and details, messagesAll its chat histories.
 */
const LIVE_QUERIES = [
  queryKeys.ticketsAll,
  queryKeys.messagesAll,
  queryKeys.contactsLists,
  queryKeys.channels,
  queryKeys.onlineTeam,
  queryKeys.settings,
  queryKeys.usersLists,
  queryKeys.queues,
  queryKeys.tags,
] as const;

/**
 * On every connection, the first included: events emitted before the socket joined its rooms (a ticket created while
 * the list was loading, anything during a reconnection) never reach it, so the live data is read again. A read still
 * in flight is restarted, since its answer may predate the connection.
 */
function catchUp(queryClient: QueryClient): void {
  for (const queryKey of LIVE_QUERIES) void queryClient.invalidateQueries({ queryKey });
}
