/**
 * The history a QR session's login brings, imported when the channel asks for it (H8; channel options
 * `importMessages`, client-contract §20.5). The driver filters the history (dates, groups) and hands it over as
 * message events marked `imported`, each batch announced by a `history-import` event with the running total, and a
 * last `history-import` with `done`. Ingestion stores the imported messages like others (idempotent on the provider
 * id) but read, without unread count, without `chat:create`/`ticket:create` events (so nothing notifies and nothing
 * that follows a customer's message runs), new tickets in `queueIdImportMessages` when set. This tracker counts
 * them per channel and publishes `{T}:importMessages` progress (`messages.import_progress`, relayed by the messages
 * module): `{this, all, date}` while it runs (`this` = imported messages handled, `all` = history messages handed
 * over so far, `date` = the oldest stored), then `this = all = -1` and `{action:'refresh'}` (the screens reload).
 * With `closedTicketsPostImported`, the tickets the import created are closed at the end, unless something other
 * than imported history was stored on them meanwhile (a customer wrote, an agent answered).
 *
 * The state lives in the process that runs the session (events of one channel arrive there, in order). If that
 * process stops mid-import the messages stored stay; the progress ends and the created tickets stay open.
 *
 * An import whose end never comes (a gateway that has no end signal or lost it, a session handed over mid-import)
 * ends by itself once no batch was announced for `quietMs` (IMPORT_QUIET_END_MS): the same end as `done`.
 */
import { sql } from 'drizzle-orm';
import { IMPORTED_SEND_TYPE, type ImportMessagesStatus } from '@conversa/shared';
import { queryRows, type Database } from '../../platform/db/client.js';
import type { Logger } from 'pino';
import type { EventBus } from '../../platform/events/bus.js';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import type { ChannelCredentials } from '../channels/index.js';

/** While a batch is stored, progress is published every this many imported messages (and at each batch's end). */
export const IMPORT_PROGRESS_EVERY = 100;

/** An import with no batch announced for this long has ended (longer than any provider's own end rule). */
export const IMPORT_QUIET_END_MS = 3 * 60_000;

interface ImportState {
  /** History messages handed over so far. */
  all: number;
  /** Imported messages handled (stored, or already stored: a re-delivered one counts once per delivery). */
  handled: number;
  /** Oldest stored message time, epoch ms. */
  oldest: number | null;
  /** Tickets the import created. */
  created: Set<number>;
  /** Ends the import when no batch comes in time (re-armed by each batch). */
  quiet: NodeJS.Timeout | null;
}

export function createImportTracker(deps: {
  db: Database;
  events: EventBus;
  quietMs?: number;
  logger?: Pick<Logger, 'warn'>;
}) {
  const states = new Map<number, ImportState>();
  const quietMs = deps.quietMs ?? IMPORT_QUIET_END_MS;

  function publish(channel: ChannelCredentials, status: ImportMessagesStatus | null): void {
    deps.events.publish('messages.import_progress', {
      tenantId: channel.tenantId,
      channelId: channel.id,
      progress: status ? { action: 'update', status } : { action: 'refresh' },
    });
  }

  const statusOf = (state: ImportState): ImportMessagesStatus => ({
    this: Math.min(state.handled, state.all),
    all: state.all,
    date: state.oldest === null ? null : new Date(state.oldest).toISOString(),
  });

  /** Closes the active tickets the import created whose every message is imported history; answers their ids. */
  async function closeCreated(channel: ChannelCredentials, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const tenantId = channel.tenantId;
    return withTenant(deps.db, systemContext(tenantId), async (tx) => {
      const rows = await queryRows<{ id: number }>(
        tx,
        sql`update tickets t set status = 'closed', closed_at = now(), closing_at = null, unread_messages = 0,
              updated_at = now()
            where t.tenant_id = ${tenantId} and t.channel_id = ${channel.id} and t.status in ('open', 'pending')
              and t.id = any(${`{${ids.join(',')}}`}::bigint[])
              and not exists (select 1 from messages m where m.tenant_id = ${tenantId} and m.ticket_id = t.id
                                and m.send_type is distinct from ${IMPORTED_SEND_TYPE})
            returning t.id`,
      );
      const closed = rows.map((r) => Number(r.id));
      if (closed.length > 0) {
        await tx.execute(sql`insert into ticket_logs (tenant_id, ticket_id, user_id, type, details)
          select ${tenantId}, id, null, 'closed', ${JSON.stringify({ reason: 'import' })}::jsonb
          from unnest(${`{${closed.join(',')}}`}::bigint[]) as id`);
      }
      return closed;
    });
  }

  async function finish(channel: ChannelCredentials): Promise<void> {
    const state = states.get(channel.id);
    states.delete(channel.id);
    if (state?.quiet) clearTimeout(state.quiet);
    if (state && channel.historyImport?.closeTickets) await closeCreated(channel, [...state.created]);
    publish(channel, { this: -1, all: -1, date: state ? statusOf(state).date : null });
    publish(channel, null);
  }

  return {
    /** A `history-import` event: a batch announced (progress), or the end (close, -1/-1, refresh). */
    async announce(channel: ChannelCredentials, total: number, done: boolean): Promise<void> {
      if (done) return finish(channel);
      let state = states.get(channel.id);
      if (!state) {
        state = { all: 0, handled: 0, oldest: null, created: new Set(), quiet: null };
        states.set(channel.id, state);
      }
      state.all = Math.max(state.all, total, state.handled);
      if (state.quiet) clearTimeout(state.quiet);
      const armed = state;
      state.quiet = setTimeout(() => {
        if (states.get(channel.id) !== armed) return;
        finish(channel).catch((error: unknown) =>
          deps.logger?.warn({ err: error, channelId: channel.id }, 'history import: ending a quiet import failed'),
        );
      }, quietMs);
      state.quiet.unref();
      publish(channel, statusOf(state));
    },
    /** An imported message handled: `stored` with its time and whether it created its ticket, or null (not stored). */
    handled(channel: ChannelCredentials, stored: { timestamp: number; ticketId: number; created: boolean } | null) {
      const state = states.get(channel.id);
      if (!state) return;
      state.handled += 1;
      if (stored) {
        if (state.oldest === null || stored.timestamp < state.oldest) state.oldest = stored.timestamp;
        if (stored.created) state.created.add(stored.ticketId);
      }
      if (state.handled > state.all) state.all = state.handled;
      if (state.handled % IMPORT_PROGRESS_EVERY === 0 || state.handled === state.all) {
        publish(channel, statusOf(state));
      }
    },
  };
}

export type ImportTracker = ReturnType<typeof createImportTracker>;
