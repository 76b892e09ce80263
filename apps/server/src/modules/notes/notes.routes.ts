/**
 * /api/ticketNotes (client-contract §15). `GET /ticketNotes/` keeps the contract's bare array (newest first, one page);
 * `GET /ticketNotes/list` is the same list with its count, for the /notas screen. Every profile may read and write
 * the notes of the tickets it may see.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  ticketLogsParamsSchema,
  ticketNoteDtoSchema,
  ticketNoteInputSchema,
  ticketNoteListQuerySchema,
  ticketNoteListSchema,
  ticketNotePageSchema,
  ticketNoteUpdateSchema,
} from '@conversa/shared';
import { actor } from '../../platform/http/auth.js';
import type { NotesService } from './notes.service.js';

const tags = ['notes'];

export function notesRoutes(service: NotesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/ticketNotes',
      { schema: { tags, querystring: ticketNoteListQuerySchema, response: { 200: ticketNoteListSchema } } },
      async (request) => (await service.listNotes(actor(request), request.query)).ticketNotes,
    );

    app.get(
      '/ticketNotes/list',
      { schema: { tags, querystring: ticketNoteListQuerySchema, response: { 200: ticketNotePageSchema } } },
      async (request) => service.listNotes(actor(request), request.query),
    );

    app.get(
      '/ticketNotes/:ticketId/logs',
      { schema: { tags, params: ticketLogsParamsSchema, response: { 200: ticketNoteListSchema } } },
      async (request) => service.ticketNotes(actor(request), request.params.ticketId),
    );

    app.post(
      '/ticketNotes',
      { schema: { tags, body: ticketNoteInputSchema, response: { 201: ticketNoteDtoSchema } } },
      async (request, reply) => reply.code(201).send(await service.createNote(actor(request), request.body)),
    );

    app.put(
      '/ticketNotes/:id',
      {
        schema: { tags, params: idParamsSchema, body: ticketNoteUpdateSchema, response: { 200: ticketNoteDtoSchema } },
      },
      async (request) => service.updateNote(actor(request), request.params.id, request.body.notes),
    );

    app.delete(
      '/ticketNotes/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.deleteNote(actor(request), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
