/**
 * Older history of a live WhatsApp session (POST /messages/syncOld and /messages/syncOldByUser, client-contract
 * §5.1): the owner's session is asked for up to `limit` older messages (of one chat, or of every chat); they arrive
 * as ordinary message events through ingestion (stored once: a re-delivered message is not stored again).
 *
 * Progress (`{T}:importMessages`, client-contract §19) is read from what was stored, so it holds whichever node
 * runs the session: an imported message is one of this channel (and chat) stored since the request whose own
 * WhatsApp time is older than the request (messages that arrive live meanwhile are not history). `this` grows as
 * they are stored; `date` is the oldest one reached. The import is done when the count asked for is reached, or when
 * nothing new was stored for a quiet period (WhatsApp sends what it has and stops; it never says "that was all"),
 * or after a maximum time; then `this = all = -1` and `{ action: 'refresh' }`. The watcher runs in the process that
 * took the request; if that process stops, the messages are still imported, only the progress toast ends early.
 */
import { and, count, eq, gte, inArray, lt, min } from 'drizzle-orm';
import type { ImportMessagesStatus } from '@conversa/shared';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { fail } from '../../platform/http/errors.js';
import { findTenantChannel, type LiveOps } from '../channels/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import type { Database } from '../../platform/db/client.js';
import { isLiveType, sessionFailure } from './messages.live-session.js';
import { messages } from './messages.tables.js';

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    /** History import progress of a channel (`{T}:importMessages`). */
    'messages.import_progress': {
      tenantId: number;
      channelId: number;
      progress: { action: 'update'; status: ImportMessagesStatus } | { action: 'refresh' };
    };
  }
}

export interface HistoryTiming {
  /** How often the stored count is read. */
  pollMs: number;
  /** Nothing new stored for this long: the import is over. */
  quietMs: number;
  /** The import is over after this long whatever arrives. */
  maxMs: number;
}

export const DEFAULT_HISTORY_TIMING: HistoryTiming = { pollMs: 2_000, quietMs: 30_000, maxMs: 30 * 60_000 };

/** `<digits>@c.us` (a person: its number) or `<id>@g.us` (a group: its id as stored on its contact). */
export function chatKeyOf(contactId: string): string {
  return contactId.endsWith('@c.us') ? contactId.slice(0, -'@c.us'.length) : contactId;
}

export function createHistoryImport(deps: {
  db: Database;
  events: EventBus;
  ops: () => LiveOps;
  timing?: Partial<HistoryTiming>;
}) {
  let timing: HistoryTiming = { ...DEFAULT_HISTORY_TIMING, ...deps.timing };
  /** Watchers running in this process (tests and shutdown await them). */
  const running = new Set<Promise<void>>();

  async function importedSoFar(
    ctx: TenantContext,
    channelId: number,
    chatKey: string | null,
    since: Date,
  ): Promise<{ count: number; oldest: number | null }> {
    return withTenant(deps.db, ctx, async (tx) => {
      let contactIds: number[] | null = null;
      if (chatKey !== null) {
        const rows = await tx
          .select({ id: contacts.id })
          .from(contacts)
          .where(and(eq(contacts.tenantId, ctx.tenantId), eq(contacts.number, chatKey)));
        contactIds = rows.map((r) => r.id);
        if (contactIds.length === 0) return { count: 0, oldest: null };
      }
      const [row] = await tx
        .select({ n: count(), oldest: min(messages.timestamp) })
        .from(messages)
        .where(
          and(
            eq(messages.tenantId, ctx.tenantId),
            eq(messages.channelId, channelId),
            gte(messages.createdAt, since),
            lt(messages.timestamp, since.getTime()),
            ...(contactIds ? [inArray(messages.contactId, contactIds)] : []),
          ),
        );
      return { count: Number(row?.n ?? 0), oldest: row?.oldest == null ? null : Number(row.oldest) };
    });
  }

  async function watch(ctx: TenantContext, channelId: number, chatKey: string | null, all: number, since: Date) {
    const publish = (status: ImportMessagesStatus) =>
      deps.events.publish('messages.import_progress', {
        tenantId: ctx.tenantId,
        channelId,
        progress: { action: 'update', status },
      });
    const started = Date.now();
    let seen = 0;
    let changedAt = started;
    let date: string | null = null;
    publish({ this: 0, all, date });
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, timing.pollMs));
      const now = Date.now();
      const found = await importedSoFar(ctx, channelId, chatKey, since).catch(() => null);
      if (found && found.count !== seen) {
        seen = found.count;
        changedAt = now;
        date = found.oldest === null ? null : new Date(found.oldest).toISOString();
        publish({ this: Math.min(seen, all), all, date });
      }
      if (seen >= all || now - changedAt >= timing.quietMs || now - started >= timing.maxMs) break;
    }
    publish({ this: -1, all: -1, date });
    deps.events.publish('messages.import_progress', {
      tenantId: ctx.tenantId,
      channelId,
      progress: { action: 'refresh' },
    });
  }

  return {
    /** Asks the session for the history and starts the progress watcher; answers how many messages were asked for. */
    async syncOld(
      ctx: TenantContext,
      input: { whatsappId: number; limit: number; contactId?: string },
    ): Promise<{ requested: number }> {
      const channel = await withTenant(deps.db, ctx, (tx) => findTenantChannel(tx, ctx.tenantId, input.whatsappId));
      if (!channel) throw fail('ERR_NO_WAPP_FOUND');
      if (!isLiveType(channel.type)) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
      const chatKey = input.contactId ? chatKeyOf(input.contactId) : null;
      const since = new Date();
      let requested: number;
      try {
        requested = await deps
          .ops()
          .run({ op: 'requestHistory', channelId: channel.id, chatId: chatKey, limit: input.limit });
      } catch (error) {
        throw sessionFailure(error, 'ERR_CHANNEL_PROVIDER');
      }
      const all = Math.max(1, Math.min(requested || input.limit, input.limit));
      const watcher = watch(ctx, channel.id, chatKey, all, since).finally(() => running.delete(watcher));
      running.add(watcher);
      return { requested: all };
    },
    /** Changes how watchers started from now on poll and end (tests). */
    configure(next: Partial<HistoryTiming>): void {
      timing = { ...timing, ...next };
    },
    /** Resolves when every watcher started here has finished. */
    async idle(): Promise<void> {
      await Promise.all([...running]);
    },
  };
}

export type HistoryImport = ReturnType<typeof createHistoryImport>;
