/**
 * Internal ticket notes: whoever may see a ticket reads and writes its notes; only the author or an admin edits or
 * deletes one. `@name` mentions of the tenant's users are stored on the note and notify each mentioned user once
 * (on creation, and on an edit that adds them), in the note's transaction; the events go out after the commit.
 */
import type { NotificationDto, TicketNoteDto, TicketNoteEvent } from '@conversa/shared';
import type { Database, Tx } from '../../platform/db/client.js';
import { withTenant } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { createNotifications, publishCreated } from '../notifications/index.js';
import { findVisibleTicket } from '../tickets/index.js';
import { findMentionedUserIds, noteExcerpt } from './notes.mentions.js';
import * as repo from './notes.repository.js';
import './notes.events.js';

export function toNoteDto(row: repo.NoteWithNames): TicketNoteDto {
  return {
    id: row.id,
    notes: row.notes,
    ticketId: row.ticketId,
    userId: row.userId,
    mentionedUserIds: row.mentionedUserIds,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    user: row.userName === null ? null : { name: row.userName },
    ticket: { id: row.ticketId, contact: { name: row.contactName } },
  };
}

const isAdmin = (ctx: AuthedContext) => ctx.profile === 'admin' || ctx.profile === 'superadmin';

interface Written {
  note: TicketNoteDto;
  notifications: NotificationDto[];
}

export function createNotesService(deps: { db: Database; events: EventBus }) {
  const { db, events } = deps;

  /** The mentions of `text`, and a notification for each newly mentioned user other than the author. */
  async function mention(tx: Tx, ctx: AuthedContext, ticketId: number, noteId: number, text: string, before: number[]) {
    const candidates = await repo.tenantUsers(tx, ctx.tenantId);
    const mentioned = findMentionedUserIds(text, candidates);
    const authorName = candidates.find((u) => u.id === ctx.userId)?.name ?? '';
    const excerpt = noteExcerpt(text);
    const fresh = mentioned.filter((id) => id !== ctx.userId && !before.includes(id));
    return {
      mentioned,
      notify: fresh.map((userId) => ({
        userId,
        senderId: ctx.userId,
        message: `${authorName} mencionou você no ticket #${ticketId}: ${excerpt}`,
        data: { kind: 'mention', ticketId, noteId, authorName, excerpt },
      })),
    };
  }

  function publish(ctx: AuthedContext, written: Written, action: 'create' | 'update') {
    const event: TicketNoteEvent = { action, note: written.note };
    events.publish('notes.changed', { tenantId: ctx.tenantId, ticketId: written.note.ticketId, event });
    publishCreated(events, ctx.tenantId, written.notifications);
  }

  async function loadDto(tx: Tx, ctx: AuthedContext, id: number): Promise<TicketNoteDto> {
    const row = await repo.loadNote(tx, ctx.tenantId, id);
    if (!row) throw fail('ERR_NO_NOTE_FOUND');
    return toNoteDto(row);
  }

  /** The caller's note to change: of a ticket they may see (else not found), written by them unless admin. */
  async function lockOwnNote(tx: Tx, ctx: AuthedContext, id: number) {
    const note = await repo.lockVisibleNote(tx, ctx, id);
    if (!note) throw fail('ERR_NO_NOTE_FOUND');
    if (note.userId !== ctx.userId && !isAdmin(ctx)) throw fail('ERR_NO_PERMISSION');
    return note;
  }

  return {
    async listNotes(ctx: AuthedContext, query: { pageNumber: number; rowsPerPage: number; searchParam?: string }) {
      const limit = query.rowsPerPage;
      const offset = (query.pageNumber - 1) * limit;
      const { rows, count } = await withTenant(db, ctx, (tx) =>
        repo.listVisibleNotes(tx, ctx, { limit, offset, search: query.searchParam }),
      );
      return { ticketNotes: rows.map(toNoteDto), count, hasMore: offset + rows.length < count };
    },

    async ticketNotes(ctx: AuthedContext, ticketId: number): Promise<TicketNoteDto[]> {
      return withTenant(db, ctx, async (tx) => {
        if (!(await findVisibleTicket(tx, ctx, ticketId))) throw fail('ERR_NO_TICKET_FOUND');
        return (await repo.listTicketNotes(tx, ctx.tenantId, ticketId)).map(toNoteDto);
      });
    },

    async createNote(ctx: AuthedContext, input: { notes: string; ticketId: number }): Promise<TicketNoteDto> {
      const written = await withTenant(db, ctx, async (tx): Promise<Written> => {
        if (!(await findVisibleTicket(tx, ctx, input.ticketId))) throw fail('ERR_NO_TICKET_FOUND');
        const values = { tenantId: ctx.tenantId, ticketId: input.ticketId, userId: ctx.userId, notes: input.notes };
        const row = await repo.insertNote(tx, { ...values, mentionedUserIds: [] });
        const { mentioned, notify } = await mention(tx, ctx, input.ticketId, row.id, input.notes, []);
        if (mentioned.length > 0)
          await repo.updateNote(tx, ctx.tenantId, row.id, { notes: row.notes, mentionedUserIds: mentioned });
        const notifications = await createNotifications(tx, ctx.tenantId, notify);
        return { note: await loadDto(tx, ctx, row.id), notifications };
      });
      publish(ctx, written, 'create');
      return written.note;
    },

    async updateNote(ctx: AuthedContext, id: number, text: string): Promise<TicketNoteDto> {
      const written = await withTenant(db, ctx, async (tx): Promise<Written> => {
        const note = await lockOwnNote(tx, ctx, id);
        const { mentioned, notify } = await mention(tx, ctx, note.ticketId, id, text, note.mentionedUserIds);
        await repo.updateNote(tx, ctx.tenantId, id, { notes: text, mentionedUserIds: mentioned });
        const notifications = await createNotifications(tx, ctx.tenantId, notify);
        return { note: await loadDto(tx, ctx, id), notifications };
      });
      publish(ctx, written, 'update');
      return written.note;
    },

    async deleteNote(ctx: AuthedContext, id: number): Promise<void> {
      const note = await withTenant(db, ctx, async (tx) => {
        const found = await lockOwnNote(tx, ctx, id);
        await repo.deleteNote(tx, ctx.tenantId, id);
        return found;
      });
      const event: TicketNoteEvent = { action: 'delete', note: { id, ticketId: note.ticketId } };
      events.publish('notes.changed', { tenantId: ctx.tenantId, ticketId: note.ticketId, event });
    },
  };
}

export type NotesService = ReturnType<typeof createNotesService>;
