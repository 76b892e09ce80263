/**
 * The lifecycle of one Baileys session (baileys.driver.ts): open, the connection's updates, logout and close. A QR
 * (`connection.update {qr}`) becomes session status `qrcode`, or with a pairing number a pairing code (status
 * PAIRING); `open` becomes CONNECTED with the number and profile picture. After a first login WhatsApp closes with
 * `restartRequired` (515): that is part of the login, the driver opens the next socket itself. Every other close ends
 * the session: `context.closed()` with loggedOut/forbidden/multi-device mismatch -> 'logged-out', connectionReplaced
 * -> 'conflict', timedOut before any login (the QR expired) -> 'timeout', the rest -> 'lost'; the host decides about
 * reconnecting.
 */
import type { Logger } from 'pino';
import {
  Browsers,
  DisconnectReason,
  jidNormalizedUser,
  makeCacheableSignalKeyStore,
  type BaileysEventMap,
  type ConnectionState,
} from 'baileys';
import type { ChannelCredentials } from '../../channels.adapter.js';
import type { LiveSession, SessionContext } from '../../sessions/session-driver.js';
import { loadBaileysAuth } from './baileys.auth.js';
import { liveActions } from './baileys.driver-actions.js';
import { closeReasonOf, statusCodeOf } from './baileys.driver-errors.js';
import { receiveEvents, stopImportTimer } from './baileys.driver-receive.js';
import { emit, newBaileysSession, serial, type BaileysSession } from './baileys.driver-state.js';
import { jidUser, normalizeWhatsAppNumber } from './baileys.parse.js';
import type { BaileysSocket, MakeBaileysSocket } from './baileys.socket.js';

export async function openSession(
  channel: ChannelCredentials,
  context: SessionContext,
  makeSocket: MakeBaileysSocket,
  baseLogger: Logger,
  historyQuietMs: number,
): Promise<LiveSession> {
  const logger = baseLogger.child({ channelId: channel.id, driver: 'baileys' });
  const auth = await loadBaileysAuth(context.auth);
  const session = newBaileysSession({ channel, context, logger, auth, makeSocket, historyQuietMs });

  startSocket(session);

  return {
    ...liveActions(session),
    async logout() {
      session.stopping = true;
      session.connected = false;
      stopImportTimer(session);
      try {
        await session.socket.logout();
      } catch (error) {
        // Not connected (or already unlinked): the phone forgets the device when it sees it gone; clear anyway.
        logger.warn({ err: error }, 'baileys: logout failed; clearing the auth state anyway');
        await session.socket.end(undefined).catch(() => undefined);
      }
      await auth.flush().catch(() => undefined);
      await context.auth.clear();
    },
    async close() {
      session.stopping = true;
      session.connected = false;
      stopImportTimer(session);
      await session.socket.end(undefined).catch(() => undefined);
      await auth.flush().catch(() => undefined);
    },
  };
}

async function onConnection(session: BaileysSession, sock: BaileysSocket, update: Partial<ConnectionState>) {
  const { auth, context, logger } = session;
  if (update.qr && !session.stopping) {
    const loggedIn = Boolean(auth.state.creds.me);
    if (context.pairingNumber && !loggedIn) {
      if (session.pairingRequested) return;
      session.pairingRequested = true;
      const pairingCode = await sock.requestPairingCode(context.pairingNumber.replace(/\D/g, ''));
      await emit(session, [{ kind: 'session', status: 'PAIRING', pairingCode }]);
    } else if (!loggedIn) {
      await emit(session, [{ kind: 'session', status: 'qrcode', qrcode: update.qr }]);
    }
  }
  if (update.connection === 'open') {
    session.connected = true;
    const me = sock.user?.id;
    const number = me ? normalizeWhatsAppNumber(jidUser(me)) : null;
    const profilePicUrl = me
      ? ((await sock.profilePictureUrl(jidNormalizedUser(me), 'image').catch(() => undefined)) ?? null)
      : null;
    await emit(session, [{ kind: 'session', status: 'CONNECTED', number, profilePicUrl }]);
  }
  if (update.connection === 'close') {
    session.connected = false;
    if (session.stopping) return;
    const statusCode = statusCodeOf(update.lastDisconnect?.error);
    await auth.flush().catch(() => undefined);
    if (statusCode === DisconnectReason.restartRequired) {
      logger.info('baileys: restart after login');
      startSocket(session);
      return;
    }
    const reason = closeReasonOf(statusCode, Boolean(auth.state.creds.me));
    logger.info({ statusCode, reason }, 'baileys: connection closed');
    session.stopping = true;
    context.closed(reason);
  }
}

/** A socket for the session's current login; only the newest socket's events are handled. */
function startSocket(session: BaileysSession) {
  const { auth, channel, logger, remembered } = session;
  session.pairingRequested = false;
  const sock = session.makeSocket(
    {
      auth: { creds: auth.state.creds, keys: makeCacheableSignalKeyStore(auth.state.keys, logger) },
      logger: logger.child({ module: 'baileys' }, { level: 'warn' }),
      browser: Browsers.ubuntu('Conversa'),
      // Sends are stored by the send job; our own sends echoed back as upserts would race it.
      emitOwnEvents: false,
      markOnlineOnConnect: false,
      syncFullHistory: false,
      getMessage: async (key) => (key.id ? (remembered.get(key.id)?.message ?? undefined) : undefined),
    },
    { channelId: channel.id },
  );
  session.socket = sock;
  const on = <E extends keyof BaileysEventMap>(event: E, work: (data: BaileysEventMap[E]) => Promise<void>) =>
    sock.ev.on(event, (data) => {
      if (session.socket === sock) serial(session, event, () => work(data));
    });
  sock.ev.on('creds.update', () => {
    auth.saveCreds().catch((error: unknown) => logger.error({ err: error }, 'baileys: saving creds failed'));
  });
  on('connection.update', (update) => onConnection(session, sock, update));
  receiveEvents(session, sock, on);
}
