/**
 * The simulator's live endpoints (tests only), answered from its state in Wuzapi's shapes: groups (`GET /group/info`
 * with the `groupJID` query parameter, `GET /group/list`), the phone book (`GET /user/contacts`, by JID), LIDs
 * (`GET /user/lid/{jid}`) and stored history (`GET /chat/history`: a user's rows newest first, or the index of every
 * user's chats; 501 while the user's history setting is 0). Plus the builders of what Wuzapi stores and sends:
 * a stored events.Message row and a HistorySync webhook event.
 */
export interface SimGroupMember {
  /** The JID WhatsApp addresses the member by: the phone JID, or the LID in LID-addressed groups. */
  jid: string;
  /** The phone JID beside a LID (whatsmeow fills it when it knows it); '' when unknown. */
  phone?: string;
  admin?: 'admin' | 'superadmin';
}

export interface SimHistoryRow {
  userId: string;
  chatJid: string;
  senderJid: string;
  messageId: string;
  timestamp: string;
  dataJson: string;
}

export interface WuzapiLiveState {
  /** Wuzapi's user id (what /session/status answers as `id`). */
  id: string;
  /** The user's `history` setting: messages kept per chat; 0 = history off. */
  history: number;
  groups: Map<string, { name: string; members: SimGroupMember[] }>;
  /** whatsmeow's contact store: JID -> ContactInfo fields. */
  contacts: Map<string, { FullName?: string; FirstName?: string; PushName?: string; BusinessName?: string }>;
  /** Phone JID -> LID. */
  lids: Map<string, string>;
}

export const newLiveState = (id: string): WuzapiLiveState => ({
  id,
  history: 0,
  groups: new Map(),
  contacts: new Map(),
  lids: new Map(),
});

type Answer = [number, unknown] | [number, null, string];

const groupInfo = (jid: string, group: { name: string; members: SimGroupMember[] }) => ({
  JID: jid,
  OwnerJID: group.members.find((m) => m.admin === 'superadmin')?.jid ?? '',
  Name: group.name,
  NameSetAt: '2025-01-10T12:00:00-03:00',
  NameSetBy: '',
  Topic: '',
  IsLocked: false,
  IsAnnounce: false,
  IsEphemeral: false,
  GroupCreated: '2025-01-10T12:00:00-03:00',
  ParticipantVersionID: '1736521200000000',
  Participants: group.members.map((m) => ({
    JID: m.jid,
    PhoneNumber: m.phone ?? (m.jid.endsWith('@s.whatsapp.net') ? m.jid : ''),
    LID: m.jid.endsWith('@lid') ? m.jid : '',
    IsAdmin: m.admin !== undefined,
    IsSuperAdmin: m.admin === 'superadmin',
    DisplayName: '',
    Error: 0,
    AddRequest: null,
  })),
});

/** The answer of a live endpoint, or null when the route is not one of them. */
export function answerLive(
  state: WuzapiLiveState,
  rows: SimHistoryRow[],
  method: string,
  path: string,
  query: Record<string, string>,
): Answer | null {
  if (method !== 'GET') return null;
  if (path.startsWith('/user/lid/')) {
    const jid = decodeURIComponent(path.slice('/user/lid/'.length));
    const lid = state.lids.get(jid);
    return lid ? [200, { jid, lid }] : [404, null, 'LID not found for this number'];
  }
  switch (path) {
    case '/group/info': {
      if (!query.groupJID) return [400, null, 'missing groupJID parameter'];
      const group = state.groups.get(query.groupJID);
      if (!group) return [500, null, 'Failed to get group info: info query returned status 404: item-not-found'];
      return [200, groupInfo(query.groupJID, group)];
    }
    case '/group/list': {
      const groups = [...state.groups].map(([jid, group]) => groupInfo(jid, group));
      return [200, { Groups: groups.length ? groups : null }];
    }
    case '/user/contacts':
      return [
        200,
        Object.fromEntries(
          [...state.contacts].map(([jid, c]) => [
            jid,
            { Found: true, FirstName: '', FullName: '', PushName: '', BusinessName: '', ...c },
          ]),
        ),
      ];
    case '/chat/history': {
      if (state.history <= 0) return [501, null, 'message history is disabled for this user'];
      if (!query.chat_jid) return [400, null, 'chat_jid is required'];
      if (query.chat_jid === 'index') {
        const index: Record<string, { chat_jid: string; last_updated: string }[]> = {};
        for (const row of [...rows].sort((a, b) => b.timestamp.localeCompare(a.timestamp))) {
          const chats = (index[row.userId] ??= []);
          if (!chats.some((c) => c.chat_jid === row.chatJid))
            chats.push({ chat_jid: row.chatJid, last_updated: row.timestamp });
        }
        return [200, index];
      }
      const limit = query.limit === undefined ? 50 : Number(query.limit);
      if (!Number.isInteger(limit)) return [400, null, 'invalid limit'];
      const found = rows
        .filter((row) => row.userId === state.id && row.chatJid === query.chat_jid)
        .sort((a, b) => b.timestamp.localeCompare(a.timestamp))
        .slice(0, limit)
        .map((row, i) => ({
          id: i + 1,
          user_id: row.userId,
          chat_jid: row.chatJid,
          sender_jid: row.senderJid,
          message_id: row.messageId,
          timestamp: row.timestamp,
          message_type: 'text',
          text_content: '',
          media_link: '',
          data_json: row.dataJson,
        }));
      return [200, found.length ? found : null];
    }
    default:
      return null;
  }
}

/** A stored row as Wuzapi saves a received message: the events.Message (`{Info, Message}`) in data_json. */
export function historyRow(userId: string, event: { Info: Record<string, unknown>; Message: unknown }): SimHistoryRow {
  const info = event.Info as { Chat: string; Sender?: string; ID: string; Timestamp: string };
  return {
    userId,
    chatJid: info.Chat,
    senderJid: info.Sender ?? '',
    messageId: info.ID,
    timestamp: new Date(info.Timestamp).toISOString(),
    dataJson: JSON.stringify({ IsEphemeral: false, IsViewOnce: false, RawMessage: event.Message, ...event }),
  };
}

/** A history message as whatsmeow has it (waWeb.WebMessageInfo). */
export interface SimHistoryMessage {
  id: string;
  fromMe?: boolean;
  /** Groups: the member who wrote. */
  participant?: string;
  /** Unix seconds. */
  time: number;
  pushName?: string;
  message: Record<string, unknown>;
}

/** The HistorySync webhook event Wuzapi posts for one whatsmeow events.HistorySync chunk. */
export function historySyncEvent(
  syncType: number,
  conversations: { id: string; pnJID?: string; messages: SimHistoryMessage[] }[],
  options: { progress?: number; chunkOrder?: number; lidMappings?: { pnJID: string; lidJID: string }[] } = {},
): Record<string, unknown> {
  return {
    type: 'HistorySync',
    event: {
      Data: {
        syncType,
        conversations: conversations.map((c) => ({
          ID: c.id,
          ...(c.pnJID ? { pnJID: c.pnJID } : {}),
          unreadCount: 0,
          messages: c.messages.map((m, i) => ({
            message: {
              key: {
                remoteJID: c.id,
                fromMe: m.fromMe ?? false,
                ID: m.id,
                ...(m.participant ? { participant: m.participant } : {}),
              },
              message: m.message,
              messageTimestamp: m.time,
              ...(m.pushName ? { pushName: m.pushName } : {}),
              status: 4,
            },
            msgOrderID: i + 1,
          })),
        })),
        ...(options.chunkOrder !== undefined ? { chunkOrder: options.chunkOrder } : {}),
        ...(options.progress !== undefined ? { progress: options.progress } : {}),
        ...(options.lidMappings ? { phoneNumberToLidMappings: options.lidMappings } : {}),
      },
    },
  };
}
