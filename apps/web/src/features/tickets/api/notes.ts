/**
 * Internal notes of a ticket (client-contract §15 `/ticketNotes`) and the one-step protocol send
 * (`POST /ticketProtocols/send`). The chat reads a ticket's notes from `/ticketNotes/{ticketId}/logs` and merges them
 * into its history by time (hooks/chat-notes.ts); `{T}:ticketNote` keeps every open chat of the ticket live.
 */
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  ticketNoteDtoSchema,
  ticketNoteListSchema,
  ticketProtocolDtoSchema,
  type TicketNoteDto,
  type TicketNoteEvent,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { registerRealtimeHandler, type RealtimeHandler } from '../../../lib/realtime-registry';

export const ticketNotesKey = (ticketId: number) => ['ticketNotes', 'ticket', ticketId] as const;

/** GET /ticketNotes/{ticketId}/logs: the ticket's notes, oldest first. */
export const useTicketNotes = (ticketId: number) =>
  useQuery({
    queryKey: ticketNotesKey(ticketId),
    queryFn: async () =>
      ticketNoteListSchema.parse(await api.get(`/ticketNotes/${ticketId}/logs`, { background: true })),
  });

const byTime = (a: TicketNoteDto, b: TicketNoteDto) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id;

/** Puts a note in its ticket's cached list (added, or replaced by id). */
export function upsertCachedNote(queryClient: QueryClient, note: TicketNoteDto): void {
  queryClient.setQueryData<TicketNoteDto[]>(ticketNotesKey(note.ticketId), (notes) =>
    notes ? [...notes.filter((n) => n.id !== note.id), note].sort(byTime) : notes,
  );
}

export function removeCachedNote(queryClient: QueryClient, note: { id: number; ticketId: number }): void {
  queryClient.setQueryData<TicketNoteDto[]>(ticketNotesKey(note.ticketId), (notes) =>
    notes?.filter((n) => n.id !== note.id),
  );
}

export function applyNoteEvent(queryClient: QueryClient, event: TicketNoteEvent): void {
  if (event.action === 'delete') removeCachedNote(queryClient, event.note);
  else upsertCachedNote(queryClient, event.note);
}

const notesRealtime: RealtimeHandler = (socket, queryClient, T) => {
  const onNote = (event: TicketNoteEvent) => applyNoteEvent(queryClient, event);
  socket.on(`${T}:ticketNote`, onNote);
  return () => {
    socket.off(`${T}:ticketNote`, onNote);
  };
};

/** Keeps the cached notes live while a chat is open. */
export function useTicketNotesLive(): void {
  useEffect(() => registerRealtimeHandler(notesRealtime), []);
}

/** POST /ticketNotes (new) or PUT /ticketNotes/{id} (edit). */
export function useSaveNote(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, notes }: { id?: number; notes: string }) =>
      ticketNoteDtoSchema.parse(
        id === undefined
          ? await api.post('/ticketNotes', { notes, ticketId })
          : await api.put(`/ticketNotes/${id}`, { notes, ticketId }),
      ),
    onSuccess: (note) => upsertCachedNote(queryClient, note),
  });
}

/** DELETE /ticketNotes/{id}. */
export function useDeleteNote(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<void>(`/ticketNotes/${id}`),
    onSuccess: (_data, id) => removeCachedNote(queryClient, { id, ticketId }),
  });
}

/** POST /ticketProtocols/send: the customer gets "Protocolo de atendimento: <protocol>"; the chat shows it by event. */
export function useSendProtocol(ticketId: number) {
  return useMutation({
    mutationFn: async () => ticketProtocolDtoSchema.parse(await api.post('/ticketProtocols/send', { ticketId })),
  });
}
