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
import { ProviderError, type ChannelCredentials, type InboundEvent } from '../../channels.adapter.js';
import type { LiveSession, SessionCloseReason, SessionContext, SessionDriver } from '../../sessions/session-driver.js';
import { createRemoteSessionStore } from './wwebjs.auth.js';
import {
  browserOptions,
  defaultMakeClient,
  loadWwebjs,
  type ChannelProxy,
  type MakeWwebjsClient,
  type WwebjsClient,
} from './wwebjs.client.js';
import {
  lidsOfMessage,
  parseAck,
  parseBattery,
  parseContactChanged,
  parseEdit,
  parseLoading,
  parseMessage,
  parseReaction,
  parseRevoke,
  isGroupId,
  normalizeOwnNumber,
  type ParseContext,
} from './wwebjs.parse.js';
import { createSessionCalls, type SessionCalls } from './wwebjs.session.js';

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

/** 'disconnected' reasons: LOGOUT (the phone removed the device) or the WhatsApp Web state that ended the session. */
export function closeReasonOf(reason: unknown): SessionCloseReason {
  switch (reason) {
    case 'LOGOUT':
    case 'UNPAIRED':
    case 'UNPAIRED_IDLE':
    case 'TOS_BLOCK':
    case 'SMB_TOS_BLOCK':
      return 'logged-out';
    case 'CONFLICT':
      return 'conflict';
    case 'TIMEOUT':
      return 'timeout';
    default:
      return 'lost'; // UNLAUNCHED, PROXYBLOCK, DEPRECATED_VERSION, a crashed page: reconnect
  }
}

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
    const wiring = wireEvents({ client, calls, ctx, log, loginTimeoutMs });

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
      async logout() {
        await shutdown('logout');
        await ctx.auth.clear();
      },
      close: () => shutdown('destroy'),
    };
  }

  return {
    type: 'whatsapp',
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

interface WiringDeps {
  client: WwebjsClient;
  calls: SessionCalls;
  ctx: SessionContext;
  log: Logger;
  loginTimeoutMs: number;
}

/** The client's events -> SessionContext, in order; the end of the session reported once, after open returned. */
function wireEvents({ client, calls, ctx, log, loginTimeoutMs }: WiringDeps) {
  let stopped = false;
  let endHandler: (reason: SessionCloseReason) => Promise<void> = async () => undefined;
  let allowDelete: () => void = () => undefined;
  let markOpened: () => void = () => undefined;
  const openedYet = new Promise<void>((resolve) => (markOpened = resolve));
  let loginTimer: NodeJS.Timeout | null = null;
  const pnOfLid = new Map<string, string | null>();
  const groupNames = new Map<string, string>();
  const context: ParseContext = {
    pnForLid: (lid) => pnOfLid.get(lid) ?? null,
    groupName: (jid) => groupNames.get(jid) ?? null,
  };

  /** One event at a time, in arrival order: a message is stored before its ack or edit. */
  let chain: Promise<void> = Promise.resolve();
  function handle(what: string, work: () => Promise<InboundEvent[]> | InboundEvent[]): void {
    if (stopped) return;
    chain = chain
      .then(async () => {
        if (stopped) return;
        const events = await work();
        if (events.length > 0 && !stopped) await ctx.emit(events);
      })
      .catch((error: unknown) => log.error({ err: error, event: what }, 'whatsapp-web.js event not stored'));
  }

  function clearLoginTimer(): void {
    if (loginTimer) clearTimeout(loginTimer);
    loginTimer = null;
  }
  function startLoginTimer(): void {
    if (loginTimer || stopped) return;
    loginTimer = setTimeout(() => end('timeout'), loginTimeoutMs);
  }

  let ending = false;
  function end(reason: SessionCloseReason): void {
    if (ending || stopped) return;
    ending = true;
    clearLoginTimer();
    calls.setReady(false);
    void endHandler(reason)
      .catch((error: unknown) => log.warn({ err: error }, 'whatsapp-web.js shutdown failed'))
      .then(() => openedYet)
      // After open() returned and its caller took the session (setImmediate runs after that continuation).
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => ctx.closed(reason));
  }

  /** LIDs and group names a message needs, asked of the library before it is parsed. */
  async function prepare(message: unknown): Promise<void> {
    const lids = lidsOfMessage(message).filter((lid) => !pnOfLid.has(lid));
    if (lids.length > 0) {
      const found = await client.getContactLidAndPhone(lids).catch(() => []);
      lids.forEach((lid, i) => pnOfLid.set(lid, found[i]?.pn ?? null));
    }
    const chat = (message as { id?: { remote?: unknown } }).id?.remote;
    if (typeof chat === 'string' && isGroupId(chat) && !groupNames.has(chat)) {
      const info = await client.getChatById(chat).catch(() => null);
      if (info?.name) groupNames.set(chat, info.name);
    }
  }

  async function messageEvents(message: unknown): Promise<InboundEvent[]> {
    calls.remember(message);
    await prepare(message);
    return parseMessage(message, context);
  }

  const on = (event: string, listener: (...args: never[]) => void) => client.on(event, listener as never);

  on('qr', (qr: string) => {
    startLoginTimer();
    handle('qr', () => [{ kind: 'session', status: 'qrcode', qrcode: qr }]);
  });
  on('code', (code: string) => {
    startLoginTimer();
    handle('code', () => [{ kind: 'session', status: 'PAIRING', pairingCode: code }]);
  });
  on('authenticated', () => {
    clearLoginTimer();
    handle('authenticated', () => [{ kind: 'session', status: 'OPENING' }]);
  });
  on('ready', () => {
    clearLoginTimer();
    calls.setReady(true);
    handle('ready', async () => {
      const wid = client.info?.wid;
      let number = wid ? normalizeOwnNumber(wid) : null;
      if (wid && !number) {
        const [found] = await client.getContactLidAndPhone([wid._serialized]).catch(() => []);
        number = found?.pn ? normalizeOwnNumber({ user: found.pn.split('@')[0]!, server: 'c.us' }) : null;
      }
      const profilePicUrl = wid
        ? ((await client.getProfilePicUrl(wid._serialized).catch(() => undefined)) ?? null)
        : null;
      return [{ kind: 'session', status: 'CONNECTED', number, profilePicUrl }];
    });
  });
  on('loading_screen', (percent: unknown) => handle('loading_screen', () => parseLoading(percent)));
  on('change_battery', (battery: unknown) => handle('change_battery', () => parseBattery(battery)));
  on('change_state', (state: unknown) => {
    // The phone unlinked the device: RemoteAuth's own delete of the stored session may go ahead.
    if (state === 'UNPAIRED' || state === 'UNPAIRED_IDLE') allowDelete();
  });
  on('auth_failure', (message: unknown) => {
    log.warn({ message }, 'whatsapp-web.js auth failure');
    allowDelete();
    end('logged-out');
  });
  on('disconnected', (reason: unknown) => {
    const closeReason = closeReasonOf(reason);
    if (closeReason === 'logged-out') allowDelete();
    log.info({ reason }, 'whatsapp-web.js disconnected');
    end(closeReason);
  });

  on('message', (message: { fromMe?: boolean }) => {
    if (message.fromMe) return;
    handle('message', () => messageEvents(message));
  });
  on('message_create', (message: { fromMe?: boolean; id?: { id?: string } }) => {
    if (!message.fromMe) return; // 'message' has it
    const settled = calls.sendsSettled();
    handle('message_create', async () => {
      await settled;
      if (message.id?.id && calls.sentHere(message.id.id)) return [];
      return messageEvents(message);
    });
  });
  on('message_ack', (message: unknown, ack: unknown) =>
    handle('message_ack', () => {
      calls.remember(message);
      return parseAck(message, ack);
    }),
  );
  on('message_edit', (message: unknown, newBody: unknown) =>
    handle('message_edit', async () => {
      await prepare(message);
      return parseEdit(message, newBody, context);
    }),
  );
  on('message_revoke_everyone', (message: unknown, before: unknown) =>
    handle('message_revoke_everyone', () => parseRevoke(message, before)),
  );
  on('message_reaction', (reaction: unknown) => handle('message_reaction', () => parseReaction(reaction, context)));
  on('contact_changed', (_message: unknown, oldId: unknown, newId: unknown) =>
    handle('contact_changed', () => parseContactChanged(oldId, newId, context)),
  );
  on('call', (call: WAWebJS.Call) => {
    if (call.fromMe) return;
    handle('call', async () => {
      const policy = await ctx.callPolicy();
      if (!policy.reject) return [];
      await call.reject();
      if (policy.message.trim() && call.from && !call.isGroup) await calls.sendText(call.from, policy.message);
      return [];
    });
  });

  return {
    end,
    opened: () => markOpened(),
    onEnd(handler: (reason: SessionCloseReason) => Promise<void>) {
      endHandler = handler;
    },
    onDeleteAllowed(handler: () => void) {
      allowDelete = handler;
    },
    stop() {
      stopped = true;
      clearLoginTimer();
    },
  };
}
