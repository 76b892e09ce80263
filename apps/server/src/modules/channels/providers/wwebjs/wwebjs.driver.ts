/**
 * The `whatsapp` channel type: a whatsapp-web.js client (WhatsApp Web in the system chromium, driven by puppeteer) per
 * session, run by the session's lease owner (sessions/session-host.ts).
 *
 * Session data: RemoteAuth over the session's AuthStateStore (wwebjs.auth.ts), so another node resumes the session
 * without a new QR. DATA_DIR holds only RemoteAuth's scratch folder (the browser profile while the session runs, the
 * zip while it is saved), one per open, removed when the session closes. RemoteAuth stores a fresh login about a
 * minute after `ready` and then every `backupSyncIntervalMs`: a node that dies in that first minute leaves nothing
 * to resume (a new QR is needed), as with the library itself.
 *
 * Events are handed to `SessionContext.emit` one at a time in arrival order (a message before its ack). A message
 * written on the phone arrives as `message_create` with fromMe; our own sends echo there too and are dropped (the send
 * job stores them).
 *
 * Media: whatsapp-web.js downloads only through a live client (WhatsApp Web in the page decrypts it), so the media
 * ref is the message's serialized id and a download needs the session's owner. The driver's stateless
 * `downloadMedia` tries the sessions open in this process and fails transiently elsewhere; media jobs of `whatsapp`
 * channels belong on the owner, like sends.
 */
import crypto from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type WAWebJS from 'whatsapp-web.js';
import { ProviderError, type ChannelCredentials } from '../../channels.adapter.js';
import type { LiveSession, SessionContext, SessionDriver } from '../../sessions/session-driver.js';
import { createRemoteSessionStore } from './wwebjs.auth.js';
import {
  browserOptions,
  defaultMakeClient,
  loadWwebjs,
  type ChannelProxy,
  type MakeWwebjsClient,
} from './wwebjs.client.js';
import { closeReasonOf, wireEvents } from './wwebjs.events.js';
import { createSessionCalls, type SessionCalls } from './wwebjs.session.js';

export { closeReasonOf };

export interface WwebjsDriverOptions {
  /** The seam: how a client is made (tests pass the fake). Default `new Client(options)`. */
  makeClient?: MakeWwebjsClient;
  /** Default CHROMIUM_PATH, else /usr/bin/chromium. */
  chromiumPath?: string;
  /** Where RemoteAuth's scratch folders go. Default DATA_DIR/wwebjs (DATA_DIR default ./data). */
  dataDir?: string;
  logger?: Logger;
  /** Nobody scanned the QR (or typed the pairing code) in this time: the session stops with TIMEOUT. */
  loginTimeoutMs?: number;
  /** RemoteAuth's periodic save (the library's minimum is one minute). */
  backupSyncIntervalMs?: number;
  /** Default: the process runs as root (chromium then needs --no-sandbox). */
  runningAsRoot?: boolean;
}

export const WWEBJS_DRIVER_DEFAULTS = { loginTimeoutMs: 180_000, backupSyncIntervalMs: 300_000 } as const;

const proxyOf = (channel: ChannelCredentials): ChannelProxy | null => (channel.proxy?.url ? channel.proxy : null);

export function createWwebjsDriver(options: WwebjsDriverOptions = {}): SessionDriver {
  const chromiumPath = options.chromiumPath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const dataDir = path.resolve(options.dataDir ?? path.join(process.env.DATA_DIR ?? './data', 'wwebjs'));
  const loginTimeoutMs = options.loginTimeoutMs ?? WWEBJS_DRIVER_DEFAULTS.loginTimeoutMs;
  const backupSyncIntervalMs = options.backupSyncIntervalMs ?? WWEBJS_DRIVER_DEFAULTS.backupSyncIntervalMs;
  const runningAsRoot = options.runningAsRoot ?? process.getuid?.() === 0;
  /** Sessions open in this process (for the stateless media download). */
  const open = new Set<SessionCalls>();

  async function openSession(channel: ChannelCredentials, ctx: SessionContext): Promise<LiveSession> {
    const lib = await loadWwebjs();
    const log = options.logger?.child({ channelId: channel.id }) ?? ctx.logger;
    const scratch = path.join(dataDir, `channel-${channel.id}-${crypto.randomBytes(4).toString('hex')}`);
    let deleteAllowed = false;
    const store = createRemoteSessionStore(ctx.auth, { dataPath: scratch, canDelete: () => deleteAllowed });
    const clientOptions: WAWebJS.ClientOptions = {
      authStrategy: new lib.RemoteAuth({
        store,
        clientId: `channel-${channel.id}`,
        dataPath: scratch,
        backupSyncIntervalMs,
      }),
      // No local copy of WhatsApp Web's page either: the live version loads each time.
      webVersionCache: { type: 'none' },
      ...browserOptions({ chromiumPath, runningAsRoot, proxy: proxyOf(channel) }),
      ...(ctx.pairingNumber ? { pairWithPhoneNumber: { phoneNumber: ctx.pairingNumber, showNotification: true } } : {}),
    };
    const client = (options.makeClient ?? defaultMakeClient(lib))(clientOptions);
    const calls = createSessionCalls(client, lib);
    const wiring = wireEvents({ client, calls, ctx, log, loginTimeoutMs, historyImport: channel.historyImport });

    let ended = false;
    /** Browser closed, scratch folder gone; once. */
    async function shutdown(how: 'destroy' | 'logout'): Promise<void> {
      if (ended) return;
      ended = true;
      wiring.stop();
      calls.setReady(false);
      open.delete(calls);
      if (how === 'logout') {
        deleteAllowed = true;
        await client.logout().catch((error: unknown) => log.warn({ err: error }, 'whatsapp-web.js logout failed'));
      }
      await client.destroy().catch((error: unknown) => log.warn({ err: error }, 'whatsapp-web.js destroy failed'));
      client.removeAllListeners();
      await fs.rm(scratch, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    }
    wiring.onEnd(async (reason) => {
      if (reason === 'logged-out') deleteAllowed = true;
      await shutdown('destroy');
    });
    wiring.onDeleteAllowed(() => {
      deleteAllowed = true;
    });

    open.add(calls);
    void client.initialize().catch((error: unknown) => {
      if (ended) return;
      log.warn({ err: error }, 'whatsapp-web.js initialize failed');
      wiring.end('lost');
    });
    wiring.opened();

    return {
      send: (message) => calls.send(message),
      edit: (to, id, body) => calls.edit(to, id, body),
      delete: (to, id) => calls.delete(to, id),
      react: (to, id, emoji) => calls.react(to, id, emoji),
      downloadMedia: (ref, maxBytes) => calls.downloadMedia(ref, maxBytes),
      checkNumber: (number) => calls.checkNumber(number),
      profilePicture: (chatId) => calls.profilePicture(chatId),
      async logout() {
        await shutdown('logout');
        await ctx.auth.clear();
      },
      close: () => shutdown('destroy'),
    };
  }

  return {
    type: 'whatsapp',
    // whatsapp-web.js downloads only through its client: media jobs run on the session's owner.
    mediaNeedsSession: true,
    open: openSession,
    async downloadMedia(ref, maxBytes) {
      for (const calls of open) {
        if (!calls.ready) continue;
        try {
          return await calls.downloadMedia(ref, maxBytes);
        } catch (error) {
          if (error instanceof ProviderError && /message not found/.test(error.message)) continue;
          throw error;
        }
      }
      throw new ProviderError(
        'whatsapp-web.js downloads media only on the session owner: ERR_WAPP_NOT_INITIALIZED',
        false,
      );
    },
  };
}
