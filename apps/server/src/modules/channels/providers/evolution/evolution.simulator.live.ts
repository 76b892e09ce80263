/**
 * The Evolution simulator's answers to the live-operation routes (tests only), from the instance's state and in
 * Evolution v2's shapes: `chat/whatsappNumbers` (OnWhatsAppDto per number: WhatsApp answers the JID it knows, either
 * form of a Brazilian mobile), `group/participants` (Baileys' participants; `groupJid` from the query, `@g.us` added
 * like Evolution's groupValidate), `group/fetchAllGroups` (`getParticipants` required), `chat/findContacts` (the
 * stored contacts with `isGroup`, `isSaved`, `type`; `offset`/`page` when given) and `chat/findMessages` (the stored
 * records by `where.key` id/remoteJid, newest first, `offset` default 50 and `page` default 1, with total and pages).
 */

export interface SimParticipant {
  /** The member's JID: a phone JID, or a LID (`...@lid`) with its phone in `phoneNumber`. */
  id: string;
  phoneNumber?: string | null;
  admin?: 'admin' | 'superadmin' | null;
  name?: string | null;
  notify?: string | null;
}

export interface SimGroup {
  id: string;
  subject: string;
  participants: SimParticipant[];
}

export interface SimStoredMessage {
  key: Record<string, unknown>;
  /** The stored record (prepareMessage output) findMessages answers; `{ key }` when absent. */
  record?: Record<string, unknown>;
  media?: { data: Buffer; mimetype: string; fileName: string };
}

export interface SimLiveState {
  groups: Map<string, SimGroup>;
  contacts: { remoteJid: string; pushName: string | null; profilePicUrl?: string | null }[];
  messages: Map<string, SimStoredMessage>;
}

type Answer = [number, unknown];
type ErrorBody = (status: number, message: string) => unknown;

/** The other form of a Brazilian mobile's JID (with or without the ninth digit). */
function alternateJid(jid: string): string | null {
  const user = jid.split('@')[0]!;
  if (/^55\d{2}9\d{8}$/.test(user)) return `${user.slice(0, 4)}${user.slice(5)}@s.whatsapp.net`;
  if (/^55\d{2}\d{8}$/.test(user)) return `${user.slice(0, 4)}9${user.slice(4)}@s.whatsapp.net`;
  return null;
}

const timeOf = (m: SimStoredMessage): number => Number(m.record?.messageTimestamp ?? 0);

function page<T>(list: T[], body: Record<string, unknown>, defaultOffset: number | null) {
  const offset = Number(body.offset ?? defaultOffset ?? 0);
  const current = Math.max(Number(body.page ?? 1), 1);
  return {
    offset,
    current,
    items: offset ? list.slice(offset * (current - 1), offset * current) : list,
  };
}

/** The route's answer, or null when the route is not one of these. `known`: the JIDs WhatsApp knows. */
export function answerLiveRoute(
  route: string,
  body: Record<string, unknown>,
  query: URLSearchParams,
  state: SimLiveState,
  open: boolean,
  known: ReadonlySet<string>,
  errorBody: ErrorBody,
): Answer | null {
  switch (route) {
    case 'chat/findContacts': {
      const where = (body.where ?? {}) as { remoteJid?: string };
      const list = state.contacts
        .filter((c) => !where.remoteJid || c.remoteJid === where.remoteJid)
        .map((c) => {
          const isGroup = c.remoteJid.endsWith('@g.us');
          const isSaved = Boolean(c.pushName) || Boolean(c.profilePicUrl);
          return {
            id: `sim-contact-${c.remoteJid}`,
            remoteJid: c.remoteJid,
            pushName: c.pushName,
            profilePicUrl: c.profilePicUrl ?? null,
            createdAt: '2025-11-20T10:00:00.000Z',
            updatedAt: '2025-11-20T10:00:00.000Z',
            instanceId: 'sim',
            isGroup,
            isSaved,
            type: isGroup ? 'group' : isSaved ? 'contact' : 'group_member',
          };
        });
      return [200, page(list, body, null).items];
    }
    case 'chat/findMessages': {
      const key = ((body.where as { key?: { id?: string; remoteJid?: string } } | undefined)?.key ?? {}) as {
        id?: string;
        remoteJid?: string;
      };
      const matching = [...state.messages.values()]
        .filter((m) => (!key.id || m.key.id === key.id) && (!key.remoteJid || m.key.remoteJid === key.remoteJid))
        .sort((a, b) => timeOf(b) - timeOf(a));
      const { offset, current, items } = page(matching, body, 50);
      return [
        200,
        {
          messages: {
            total: matching.length,
            pages: Math.ceil(matching.length / offset),
            currentPage: current,
            records: items.map((m) => m.record ?? { key: m.key }),
          },
        },
      ];
    }
  }
  // The rest asks WhatsApp itself: the session must be open.
  if (!['chat/whatsappNumbers', 'group/participants', 'group/fetchAllGroups'].includes(route)) return null;
  if (!open) return [400, errorBody(400, 'Connection Closed')];
  switch (route) {
    case 'chat/whatsappNumbers': {
      const numbers = body.numbers;
      if (!Array.isArray(numbers) || numbers.length === 0) {
        return [400, errorBody(400, '"numbers" must be an array of numeric strings')];
      }
      return [
        200,
        numbers.map((number) => {
          const jid = `${String(number).replace(/\D/g, '')}@s.whatsapp.net`;
          const alternate = alternateJid(jid);
          const found = known.has(jid) ? jid : alternate && known.has(alternate) ? alternate : null;
          return { jid: found ?? jid, exists: found !== null, number: String(number) };
        }),
      ];
    }
    case 'group/participants': {
      let groupJid = query.get('groupJid');
      if (!groupJid) return [400, errorBody(400, 'The group id needs to be informed in the query')];
      if (!groupJid.endsWith('@g.us')) groupJid = `${groupJid}@g.us`;
      if (!/^[\d-]+@g.us$/.test(groupJid)) return [400, errorBody(400, 'groupJid does not match pattern')];
      const group = state.groups.get(groupJid);
      if (!group) return [404, errorBody(404, 'No participants')];
      return [
        200,
        {
          participants: group.participants.map((p) => ({
            id: p.id,
            ...(p.phoneNumber ? { phoneNumber: p.phoneNumber } : {}),
            admin: p.admin ?? null,
            name: p.name ?? undefined,
            notify: p.notify ?? undefined,
            imgUrl: null,
          })),
        },
      ];
    }
    case 'group/fetchAllGroups': {
      const flag = query.get('getParticipants');
      if (flag !== 'true' && flag !== 'false') {
        return [400, errorBody(400, 'The getParticipants needs to be informed in the query')];
      }
      return [
        200,
        [...state.groups.values()].map((g) => ({
          id: g.id,
          subject: g.subject,
          subjectOwner: null,
          subjectTime: 1_700_000_000,
          pictureUrl: null,
          size: g.participants.length,
          creation: 1_700_000_000,
          owner: g.participants.find((p) => p.admin === 'superadmin')?.id ?? null,
          desc: null,
          descId: null,
          restrict: false,
          announce: false,
          isCommunity: false,
          isCommunityAnnounce: false,
          linkedParent: null,
          ...(flag === 'true' ? { participants: g.participants } : {}),
        })),
      ];
    }
  }
  return null;
}
