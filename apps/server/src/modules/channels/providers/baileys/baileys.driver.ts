/**
 * The Baileys session driver: one baileys socket per channel on the lease owner (sessions/session-host.ts runs it).
 * It translates only: library events -> InboundEvents through `context.emit` (in arrival order, each batch stored
 * before the next is handled), LiveSession calls -> socket calls. Auth state lives in the session's AuthStateStore
 * (baileys.auth.ts). The socket is created by `makeSocket` (baileys' makeWASocket; tests inject the fake socket).
 *
 * The driver in files: this one is the SessionDriver the registry loads; baileys.driver-session.ts holds a session's
 * lifecycle (open, QR and pairing, restart after login, how a close ends it, logout), baileys.driver-state.ts what a
 * session holds, baileys.driver-receive.ts the library events -> InboundEvents (and the login's history import),
 * baileys.driver-actions.ts the LiveSession calls -> socket calls, baileys.driver-content.ts outbound content and
 * media downloads, baileys.driver-errors.ts how library failures and closes read.
 *
 * Not reported: battery (multi-device WhatsApp has no battery state; baileys 7 emits none).
 */
import type { Logger } from 'pino';
import { makeWASocket } from 'baileys';
import type { SessionDriver } from '../../sessions/session-driver.js';
import { downloadBaileysMedia } from './baileys.driver-content.js';
import { openSession } from './baileys.driver-session.js';
import type { MakeBaileysSocket } from './baileys.socket.js';

export { contentFor, downloadBaileysMedia } from './baileys.driver-content.js';
export { closeReasonOf } from './baileys.driver-errors.js';
export { loadBaileysSocketFactory } from './baileys.socket.js';

export interface BaileysDriverOptions {
  /** Where sockets are made; default baileys' makeWASocket. */
  makeSocket?: MakeBaileysSocket;
  logger?: Logger;
  /** A login's history import ends when no history chunk came for this long (default 150 s). */
  historyQuietMs?: number;
}

/** Longer than baileys' own RECENT "paused" timeout (120 s), which normally ends the import first. */
const HISTORY_QUIET_MS = 150_000;

/** The library's socket fits the seam (a compile-time check, no runtime cost). */
const librarySocket: MakeBaileysSocket = (config) => makeWASocket(config);

export function createBaileysDriver(options: BaileysDriverOptions = {}): SessionDriver {
  const makeSocket = options.makeSocket ?? librarySocket;
  return {
    type: 'baileys',
    open: (channel, context) =>
      openSession(
        channel,
        context,
        makeSocket,
        options.logger ?? context.logger,
        options.historyQuietMs ?? HISTORY_QUIET_MS,
      ),
    downloadMedia: downloadBaileysMedia,
  };
}
