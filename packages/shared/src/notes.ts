/** Internal ticket notes (product-spec §3 "Note", client-contract §15 `/ticketNotes`): never sent to the customer. */
import { z } from 'zod';

export const NOTES_PAGE_SIZE = 30;
export const NOTE_MAX_LENGTH = 5000;

export const ticketNoteDtoSchema = z.object({
  id: z.number(),
  notes: z.string(),
  ticketId: z.number(),
  userId: z.number().nullable(),
  mentionedUserIds: z.array(z.number()),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The author (null once the user is deleted). */
  user: z.object({ name: z.string() }).nullable(),
  ticket: z.object({ id: z.number(), contact: z.object({ name: z.string() }) }),
});
export type TicketNoteDto = z.infer<typeof ticketNoteDtoSchema>;

/** GET /ticketNotes/ and GET /ticketNotes/{ticketId}/logs: bare arrays (client-contract §15). */
export const ticketNoteListSchema = z.array(ticketNoteDtoSchema);

/** GET /ticketNotes/ (bare array, newest first) and GET /ticketNotes/list (the /notas screen: a page with its count). */
export const ticketNoteListQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  rowsPerPage: z.coerce.number().int().min(1).max(100).catch(NOTES_PAGE_SIZE).default(NOTES_PAGE_SIZE),
  searchParam: z.string().trim().max(200).optional(),
});
export type TicketNoteListQuery = z.input<typeof ticketNoteListQuerySchema>;

export const ticketNotePageSchema = z.object({
  ticketNotes: z.array(ticketNoteDtoSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type TicketNotePage = z.infer<typeof ticketNotePageSchema>;

/** POST /ticketNotes/ and PUT /ticketNotes/{id}: `{ notes, ticketId }`; mentions are the `@name`s found in the text. */
export const ticketNoteInputSchema = z.object({
  notes: z.string().trim().min(1).max(NOTE_MAX_LENGTH),
  ticketId: z.coerce.number().int().positive(),
});
export type TicketNoteInput = z.input<typeof ticketNoteInputSchema>;

export const ticketNoteUpdateSchema = z.object({
  notes: z.string().trim().min(1).max(NOTE_MAX_LENGTH),
  /** Echoed by clients; a note never moves to another ticket. */
  ticketId: z.unknown().optional(),
});

export const ticketLogsParamsSchema = z.object({ ticketId: z.coerce.number().int().positive() });

/** `{T}:ticketNote`: a note of a ticket the user may see was written, edited or deleted. */
export type TicketNoteEvent =
  { action: 'create' | 'update'; note: TicketNoteDto } | { action: 'delete'; note: { id: number; ticketId: number } };
