/**
 * What one Baileys session holds while it runs (baileys.driver-session.ts opens it): the socket of the current login
 * and the connection flags, what the library told about addresses (LID -> phone JID, group subjects, the JID WhatsApp
 * uses for a number), the recent messages whose keys quotes, reactions and edits need, the phone's contacts, and the
 * login's history import. The driver's steps (baileys.driver-receive.ts, baileys.driver-actions.ts) read and write
 * it; the helpers here are the ones they share: the serial chain of event handlers, emitting, remembering a message.
 */
import type { Logger } from 'pino';
import type { WAMessage } from 'baileys';
import type { ChannelCredentials, InboundEvent } from '../../channels.adapter.js';
import type { SessionContext } from '../../sessions/session-driver.js';
import type { BaileysAuth } from './baileys.auth.js';
import { bareLid, type ParseContext } from './baileys.parse.js';
import type { BaileysSocket, MakeBaileysSocket } from './baileys.socket.js';

/** Message keys remembered per session (quotes, reactions and edits need the original key). */
const REMEMBERED_MESSAGES = 5_000;

export interface BaileysSession {
  channel: ChannelCredentials;
  context: SessionContext;
  logger: Logger;
  auth: BaileysAuth;
  makeSocket: MakeBaileysSocket;
  historyQuietMs: number;
  lidToPn: Map<string, string>;
  groupNames: Map<string, string | null>;
  /** Canonical number -> the JID WhatsApp addresses it by (the ninth digit may differ). */
  numberJids: Map<string, string>;
  remembered: Map<string, WAMessage>;
  /** The phone's contacts seen this session (contacts.upsert/update, history): number -> name. */
  phoneContacts: Map<string, string | null>;
  /** The current login's socket: set by startSocket (baileys.driver-session.ts) before the session is handed out. */
  socket: BaileysSocket;
  connected: boolean;
  stopping: boolean;
  pairingRequested: boolean;
  syncPercent: number;
  chain: Promise<void>;
  /** The login's history import (channel option importMessages): running, and whether it ended already. */
  importOptions: NonNullable<ChannelCredentials['historyImport']> | null;
  importing: { total: number; timer: NodeJS.Timeout | null } | null;
  importEnded: boolean;
  parseContext: ParseContext;
}

/** A session before its first socket. */
export function newBaileysSession(
  base: Pick<BaileysSession, 'channel' | 'context' | 'logger' | 'auth' | 'makeSocket' | 'historyQuietMs'>,
): BaileysSession {
  const lidToPn = new Map<string, string>();
  const groupNames = new Map<string, string | null>();
  return {
    ...base,
    lidToPn,
    groupNames,
    numberJids: new Map<string, string>(),
    remembered: new Map<string, WAMessage>(),
    phoneContacts: new Map<string, string | null>(),
    socket: undefined as unknown as BaileysSocket,
    connected: false,
    stopping: false,
    pairingRequested: false,
    syncPercent: -1,
    chain: Promise.resolve(),
    importOptions: base.channel.historyImport ?? null,
    importing: null,
    importEnded: false,
    parseContext: {
      pnForLid: (lid) => lidToPn.get(bareLid(lid)) ?? null,
      groupName: (jid) => groupNames.get(jid) ?? null,
    },
  };
}

/** Event handlers run one after another, in arrival order; a failure is logged and the next one runs. */
export const serial = (session: BaileysSession, what: string, work: () => Promise<void>) => {
  session.chain = session.chain
    .then(work)
    .catch((error: unknown) => session.logger.error({ err: error }, `baileys: ${what} failed`));
};

export const emit = async (session: BaileysSession, events: InboundEvent[]) => {
  if (events.length) await session.context.emit(events);
};

export function remember(session: BaileysSession, message: WAMessage | undefined) {
  const { remembered } = session;
  if (!message?.key.id) return;
  remembered.delete(message.key.id);
  remembered.set(message.key.id, message);
  if (remembered.size > REMEMBERED_MESSAGES) remembered.delete(remembered.keys().next().value!);
}
