import type { ChannelDto, ChannelSessionState } from './channels.js';
import type { ContactDto, ContactImportProgress } from './contacts.js';
import type { KanbanLaneEvent } from './kanban.js';
import type { MessageEventDto } from './messages.js';
import type { TicketNoteEvent } from './notes.js';
import type { NotificationEvent } from './notifications.js';
import type { QueueDto } from './queues.js';
import type { TagDto } from './tags.js';
import type { TicketDto } from './tickets.js';

/**
 * The realtime event map (client-contract §19). Event names carry the tenant id as a prefix: `{tenantId}:{name}`.
 * Typed with template-literal keys so socket.io's generics check both ends.
 */
export type TenantEvent<Name extends string> = `${number}:${Name}`;

export const tenantEvent = <Name extends string>(tenantId: number, name: Name): TenantEvent<Name> =>
  `${tenantId}:${name}` as TenantEvent<Name>;

export interface UserOnlinePayload {
  action: 'update';
  data: { userId: number; isOnline: boolean; name: string };
}

export interface OnlineUser {
  userId: number;
  name: string;
  profile: string;
}

/** `{T}:ticketList` payloads (client-contract §19): messages and tickets of the tickets the user may see. */
export type TicketListEvent =
  | { type: 'chat:create' | 'chat:update' | 'chat:ack' | 'chat:delete'; payload: MessageEventDto }
  | { type: 'ticket:update' | 'ticket:create' | 'notification:new'; payload: TicketDto }
  /** The ticket left this user's view (closed elsewhere, transferred away, deleted). */
  | { type: 'ticket:delete'; payload: { id: number } };

/** `{T}:importMessages` progress: messages imported so far of those asked for; `date` = the oldest one reached. */
export interface ImportMessagesStatus {
  this: number;
  all: number;
  date: string | null;
}

export interface ServerToClientEvents {
  [event: TenantEvent<'ticketList'>]: (payload: TicketListEvent) => void;
  [event: TenantEvent<'ticket'>]: (payload: { action: 'update'; ticket: TicketDto }) => void;
  [event: TenantEvent<'whatsapp'>]: (
    payload: { action: 'update'; whatsapp: ChannelDto } | { action: 'delete'; whatsappId: number },
  ) => void;
  [event: TenantEvent<'whatsappSession'>]: (
    payload:
      | { action: 'update' | 'readySession'; session: ChannelSessionState }
      /** History sync after a login, 0..100 (stateful QR sessions). */
      | { action: 'loadingscreen'; session: ChannelSessionState; percent: number },
  ) => void;
  /** A stateful session's phone battery (client-contract §19). */
  [event: TenantEvent<'change_battery'>]: (payload: { batteryInfo: { sessionName: string; battery: number } }) => void;
  /** History import of a QR session: progress (`this = all = -1` means finished), then `refresh` (client-contract §19). */
  [event: TenantEvent<'importMessages'>]: (
    payload: { action: 'update'; status: ImportMessagesStatus } | { action: 'refresh' },
  ) => void;
  [event: TenantEvent<'contactList'>]: (
    payload:
      | { type: 'contact:update' | 'contact:create'; payload: ContactDto }
      | { type: 'contact:delete'; payload: { id: number } },
  ) => void;
  [event: TenantEvent<'contactImport'>]: (payload: ContactImportProgress) => void;
  /** Kanban lanes changed (the lanes screen and the boards follow it; a delete empties the lane's cards). */
  [event: TenantEvent<'kanban'>]: (payload: KanbanLaneEvent) => void;
  /** A queue created, changed or deleted (the queues screen and every queue picker follow it). */
  [event: TenantEvent<'queue'>]: (payload: { action: 'create' | 'update' | 'delete'; queue: QueueDto }) => void;
  /** A tag created, changed or deleted: tag pickers, and the contacts and tickets that carry it, follow it. */
  [event: TenantEvent<'tag'>]: (payload: { action: 'create' | 'update' | 'delete'; tag: TagDto }) => void;
  [event: TenantEvent<'user-online'>]: (payload: UserOnlinePayload) => void;
  [event: TenantEvent<'updateStatusUser'>]: () => void;
  [event: TenantEvent<'chat:updateOnlineBubbles'>]: (users: OnlineUser[]) => void;
  [event: TenantEvent<'settings'>]: (payload: { action: 'update'; setting: { key: string; value: string } }) => void;
  [event: TenantEvent<'users'>]: (payload: { action: 'update' | 'delete' | 'create'; userId: number }) => void;
  /** A scheduled message created, edited, canceled or sent: ids only, screens re-read what they may see. */
  [event: TenantEvent<'scheduleMessage'>]: (payload: {
    action: 'create' | 'update' | 'delete';
    id: number;
    ticketId: number | null;
  }) => void;
  /**
   * A campaign changed (created, edited, deleted, started, canceled, a recipient sent, finished): its id only, to the
   * supervisors and admins; the campaigns screens re-read it (ours: client-contract names no campaign event).
   */
  [event: TenantEvent<'campaign'>]: (payload: { action: 'create' | 'update' | 'delete'; id: number }) => void;
  /** A note of a ticket the user may see (notes are internal: only ticket viewers get them). */
  [event: TenantEvent<'ticketNote'>]: (payload: TicketNoteEvent) => void;
  /** A notification for this user (a mention in a note), or for the whole tenant. */
  [event: TenantEvent<'notification'>]: (payload: NotificationEvent) => void;
  /** The spec's invalid-token event; emitted before the server disconnects a socket whose token is no good. */
  [event: `tokenInvalid:${string}`]: () => void;
}

export interface ClientToServerEvents {
  [event: TenantEvent<'setUserActive'>]: () => void;
  [event: TenantEvent<'setUserIdle'>]: () => void;
  [event: TenantEvent<'joinNotification'>]: () => void;
}
