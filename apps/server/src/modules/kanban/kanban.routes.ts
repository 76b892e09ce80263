/**
 * /api/kanban (client-contract §8): lanes for every profile, changes for supervisors and admins. The boards:
 * /api/contactsKanban and /api/contactsTags (§6, offset pages), our columns' keyset pages (/api/kanban/{id}/contacts,
 * /api/kanban-tags/{id}/contacts) and the tag board's move (/api/contacts/{id}/move-tag).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  boardPageQuerySchema,
  columnPageQuerySchema,
  columnPageResponseSchema,
  contactDtoSchema,
  idParamsSchema,
  kanbanBoardResponseSchema,
  laneColumnParamsSchema,
  laneDtoSchema,
  laneInputSchema,
  laneListResponseSchema,
  laneOrderInputSchema,
  moveTagInputSchema,
  tagBoardResponseSchema,
} from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { KanbanService } from './kanban.service.js';

const tags = ['kanban'];

export function kanbanRoutes(service: KanbanService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/kanban', { schema: { tags, response: { 200: laneListResponseSchema } } }, async (request) => ({
      kanban: await service.listLanes(actor(request)),
    }));

    app.post(
      '/kanban',
      { schema: { tags, body: laneInputSchema, response: { 201: laneDtoSchema } } },
      async (request, reply) =>
        reply.code(201).send(await service.createLane(requireProfile(request, 'super'), request.body)),
    );

    app.put(
      '/kanban/order',
      { schema: { tags, body: laneOrderInputSchema, response: { 200: laneListResponseSchema } } },
      async (request) => ({ kanban: await service.orderLanes(requireProfile(request, 'super'), request.body.ids) }),
    );

    app.put(
      '/kanban/:id',
      { schema: { tags, params: idParamsSchema, body: laneInputSchema, response: { 200: laneDtoSchema } } },
      async (request) => service.updateLane(requireProfile(request, 'super'), request.params.id, request.body),
    );

    app.delete(
      '/kanban/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.deleteLane(requireProfile(request, 'super'), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/kanban/:id/contacts',
      {
        schema: {
          tags,
          params: laneColumnParamsSchema,
          querystring: columnPageQuerySchema,
          response: { 200: columnPageResponseSchema },
        },
      },
      async (request) => service.laneColumn(actor(request), request.params.id, request.query),
    );

    app.get(
      '/kanban-tags/:id/contacts',
      {
        schema: {
          tags,
          params: idParamsSchema,
          querystring: columnPageQuerySchema,
          response: { 200: columnPageResponseSchema },
        },
      },
      async (request) => service.tagColumn(actor(request), request.params.id, request.query),
    );

    app.get(
      '/contactsKanban',
      { schema: { tags, querystring: boardPageQuerySchema, response: { 200: kanbanBoardResponseSchema } } },
      async (request) => {
        const page = await service.boardPage(actor(request), request.query, false);
        return { contacts: page.contacts.map(({ tags: _tags, ...card }) => card), hasMore: page.hasMore };
      },
    );

    app.get(
      '/contactsTags',
      { schema: { tags, querystring: boardPageQuerySchema, response: { 200: tagBoardResponseSchema } } },
      async (request) => service.boardPage(actor(request), request.query, true),
    );

    app.post(
      '/contacts/:id/move-tag',
      { schema: { tags, params: idParamsSchema, body: moveTagInputSchema, response: { 200: contactDtoSchema } } },
      async (request) => service.moveContactTag(actor(request), request.params.id, request.body),
    );
  };
}
