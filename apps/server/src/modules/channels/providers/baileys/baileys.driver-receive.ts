/**
 * The driver's receiving steps (baileys.driver.ts): library events -> InboundEvents through `context.emit`, in
 * arrival order, each batch stored before the next is handled. Messages, updates, receipts, reactions, contacts and
 * groups are parsed (baileys.parse.ts) after the session learnt the addresses they reveal; calls are rejected when
 * the channel's call policy says so.
 *
 * History import (H8): with the channel's `importMessages` on, the history WhatsApp sends after a login (chunks of
 * `messaging-history.set` other than on-demand ones) is handed over as imported message events (baileys.history.ts:
 * the channel's dates and group option), each chunk announced by a `history-import` event with the running total.
 * The import ends when WhatsApp says the RECENT sync is complete (or baileys gives it up as paused), or when no chunk
 * came for `historyQuietMs`: then one `history-import` with `done`. Ingestion stores them and reports the progress.
 */
import { jidNormalizedUser, proto, type BaileysEventMap, type WACallEvent, type WAMessage } from 'baileys';
import { historyCandidates, historyEvents } from './baileys.history.js';
import { emit, remember, serial, type BaileysSession } from './baileys.driver-state.js';
import {
  bareLid,
  jidUser,
  lidPairsOf,
  lidsOf,
  normalizeWhatsAppNumber,
  numberOf,
  parseContacts,
  parseGroups,
  parseMessage,
  parseMessageUpdates,
  parseReactions,
  parseReceipts,
} from './baileys.parse.js';
import type { BaileysSocket } from './baileys.socket.js';

/** Subscribes to an event of the current socket (startSocket's `on`: its handlers run through `serial`). */
export type OnSocketEvent = <E extends keyof BaileysEventMap>(
  event: E,
  work: (data: BaileysEventMap[E]) => Promise<void>,
) => void;

/** A chunk of the login's history: its messages to import, announced with the running total. */
async function importHistory(session: BaileysSession, sock: BaileysSocket, messages: WAMessage[]) {
  const { importOptions, logger } = session;
  if (!importOptions || session.importEnded) return;
  const candidates = historyCandidates(messages, importOptions);
  for (const message of candidates) remember(session, message);
  await learnAddresses(session, sock, candidates);
  const events = historyEvents(candidates, importOptions, session.parseContext);
  session.importing ??= { total: 0, timer: null };
  session.importing.total += events.length;
  await emit(session, [{ kind: 'history-import', total: session.importing.total, done: false }]);
  for (const event of events) {
    // One message that fails to store does not drop the rest of the chunk.
    await emit(session, [event]).catch((error: unknown) =>
      logger.error({ err: error, id: event.providerMessageId }, 'baileys: storing an imported message failed'),
    );
  }
  if (session.importing.timer) clearTimeout(session.importing.timer);
  session.importing.timer = setTimeout(() => {
    if (!session.stopping) serial(session, 'history import end', () => endImport(session));
  }, session.historyQuietMs);
  session.importing.timer.unref();
}

async function endImport(session: BaileysSession) {
  if (!session.importing) return;
  const { total, timer } = session.importing;
  if (timer) clearTimeout(timer);
  session.importing = null;
  session.importEnded = true;
  await emit(session, [{ kind: 'history-import', total, done: true }]);
}

export const stopImportTimer = (session: BaileysSession) => {
  if (session.importing?.timer) clearTimeout(session.importing.timer);
};

async function learnAddresses(session: BaileysSession, sock: BaileysSocket, messages: WAMessage[]) {
  const { lidToPn, groupNames, numberJids, parseContext } = session;
  for (const [lid, pn] of lidPairsOf(messages)) lidToPn.set(lid, pn);
  for (const lid of lidsOf(messages)) {
    if (lidToPn.has(lid)) continue;
    const pn = await sock.signalRepository.lidMapping.getPNForLID(lid).catch(() => null);
    if (pn) lidToPn.set(lid, `${jidUser(pn)}@s.whatsapp.net`);
  }
  for (const message of messages) {
    const chat = message.key.remoteJid;
    if (!chat) continue;
    if (chat.endsWith('@g.us') && !groupNames.has(chat)) {
      const meta = await sock.groupMetadata(chat).catch(() => null);
      groupNames.set(chat, meta?.subject ?? null);
    }
    const phone = chat.endsWith('@s.whatsapp.net') ? chat : chat.endsWith('@lid') ? parseContext.pnForLid(chat) : null;
    if (phone) numberJids.set(normalizeWhatsAppNumber(jidUser(phone)), jidNormalizedUser(phone));
  }
}

async function onCalls(session: BaileysSession, sock: BaileysSocket, calls: WACallEvent[]) {
  for (const call of calls) {
    if (call.status !== 'offer' || call.isGroup) continue;
    const policy = await session.context.callPolicy();
    if (!policy.reject) continue;
    await sock.rejectCall(call.id, call.from);
    if (policy.message.trim()) await sock.sendMessage(call.from, { text: policy.message });
  }
}

/** The socket's events other than the connection's and the creds', each to its InboundEvents. */
export function receiveEvents(session: BaileysSession, sock: BaileysSocket, on: OnSocketEvent) {
  const { lidToPn, groupNames, phoneContacts, parseContext } = session;
  on('messages.upsert', async ({ messages }) => {
    for (const message of messages) remember(session, message);
    await learnAddresses(session, sock, messages);
    await emit(
      session,
      messages.flatMap((message) => parseMessage(message, parseContext)),
    );
  });
  on('messages.update', (updates) => emit(session, parseMessageUpdates(updates, parseContext)));
  on('message-receipt.update', (receipts) => emit(session, parseReceipts(receipts)));
  on('messages.reaction', (reactions) => emit(session, parseReactions(reactions, parseContext)));
  on('lid-mapping.update', async ({ lid, pn }) => void lidToPn.set(bareLid(lid), `${jidUser(pn)}@s.whatsapp.net`));
  const learnContacts = (contacts: BaileysEventMap['contacts.upsert']) => {
    for (const [lid, pn] of lidPairsOf([], contacts)) lidToPn.set(lid, pn);
    for (const contact of contacts) {
      const number = contact.id ? numberOf(contact.id, [contact.phoneNumber], parseContext) : null;
      if (number) phoneContacts.set(number, contact.name ?? contact.notify ?? phoneContacts.get(number) ?? null);
    }
  };
  const onContacts = async (contacts: BaileysEventMap['contacts.upsert']) => {
    learnContacts(contacts);
    await emit(session, parseContacts(contacts, parseContext));
  };
  on('contacts.upsert', onContacts);
  on('contacts.update', (contacts) => onContacts(contacts as BaileysEventMap['contacts.upsert']));
  const onGroups = async (groups: BaileysEventMap['groups.update']) => {
    for (const group of groups) if (group.id && group.subject) groupNames.set(group.id, group.subject);
    await emit(session, parseGroups(groups));
  };
  on('groups.upsert', onGroups);
  on('groups.update', onGroups);
  on('messaging-history.set', async ({ lidPnMappings, contacts, messages, progress, syncType }) => {
    for (const { lid, pn } of lidPnMappings ?? []) lidToPn.set(bareLid(lid), `${jidUser(pn)}@s.whatsapp.net`);
    learnContacts(contacts);
    // Older messages asked for by requestHistory; the login's own history is imported when the channel asks.
    if (syncType === proto.HistorySync.HistorySyncType.ON_DEMAND) {
      if (messages.length) {
        for (const message of messages) remember(session, message);
        await learnAddresses(session, sock, messages);
        await emit(
          session,
          messages.flatMap((message) => parseMessage(message, parseContext)),
        );
      }
    } else await importHistory(session, sock, messages);
    if (typeof progress === 'number') {
      const percent = Math.max(0, Math.min(100, Math.round(progress)));
      if (percent !== session.syncPercent) {
        session.syncPercent = percent;
        await emit(session, [{ kind: 'session-sync', percent }]);
      }
    }
  });
  on('messaging-history.status', async ({ status, syncType }) => {
    if (status === 'complete' && session.syncPercent !== 100) {
      session.syncPercent = 100;
      await emit(session, [{ kind: 'session-sync', percent: 100 }]);
    }
    // The recent history is all there (or baileys stopped waiting for it): the import is over.
    if (syncType === proto.HistorySync.HistorySyncType.RECENT) await endImport(session);
  });
  on('call', (calls) => onCalls(session, sock, calls));
}
