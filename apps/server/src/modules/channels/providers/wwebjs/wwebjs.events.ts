/**
 * A whatsapp-web.js client's events -> SessionContext: session states (qr, pairing code, ready, loading, battery),
 * the end of the session (disconnect reasons, auth failure, the login timeout) reported once and only after open()
 * returned, and the conversation events (messages, acks, edits, revokes, reactions, contact changes) in arrival order,
 * each message's LIDs and group name asked of the library first; calls rejected per the tenant's policy.
 */
import type { Logger } from 'pino';
import type WAWebJS from 'whatsapp-web.js';
import type { HistoryImportOptions, InboundEvent } from '../../channels.adapter.js';
import type { SessionCloseReason, SessionContext } from '../../sessions/session-driver.js';
import type { WwebjsClient } from './wwebjs.client.js';
import { importHistory, type HistoryChat } from './wwebjs.history.js';
import {
  isGroupId,
  lidsOfMessage,
  normalizeOwnNumber,
  parseAck,
  parseBattery,
  parseContactChanged,
  parseEdit,
  parseLoading,
  parseMessage,
  parseReaction,
  parseRevoke,
  type ParseContext,
} from './wwebjs.parse.js';
import type { SessionCalls } from './wwebjs.session.js';

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
    default:
      // UNLAUNCHED, PROXYBLOCK, DEPRECATED_VERSION, a connection TIMEOUT, a crashed page: reconnect. (A QR nobody
      // scans is the driver's own login timer: 'timeout'.)
      return 'lost';
  }
}

export interface WiringDeps {
  /** The channel's history import options (null: off): read after a fresh login (wwebjs.history.ts). */
  historyImport?: HistoryImportOptions | null;
  client: WwebjsClient;
  calls: SessionCalls;
  ctx: SessionContext;
  log: Logger;
  loginTimeoutMs: number;
}

/** The client's events -> SessionContext, in order; the end of the session reported once, after open returned. */
export function wireEvents({ client, calls, ctx, log, loginTimeoutMs, historyImport = null }: WiringDeps) {
  let stopped = false;
  /** A QR or pairing code was shown in this session: the ready that follows is a new login (not a resume). */
  let freshLogin = false;
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
    freshLogin = true;
    startLoginTimer();
    handle('qr', () => [{ kind: 'session', status: 'qrcode', qrcode: qr }]);
  });
  on('code', (code: string) => {
    freshLogin = true;
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
    if (freshLogin && historyImport) {
      freshLogin = false;
      const options = historyImport;
      // In the event chain: live messages that arrive meanwhile wait, so they are stored after the history.
      handle('history', async () => {
        await importHistory({
          chats: async () => (await client.getChats()) as HistoryChat[],
          options,
          eventsOf: messageEvents,
          emit: (events) => ctx.emit(events),
          stopped: () => stopped,
        });
        return [];
      });
    }
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
