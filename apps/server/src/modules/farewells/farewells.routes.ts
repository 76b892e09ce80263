/** /api/farewellPrivateMessage (client-contract §15): closing messages. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { farewellDtoSchema, farewellInputSchema, farewellListResponseSchema, idParamsSchema } from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { FarewellsService } from './farewells.service.js';

const tags = ['farewells'];

export function farewellsRoutes(service: FarewellsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/farewellPrivateMessage',
      { schema: { tags, response: { 200: farewellListResponseSchema } } },
      async (request) => ({ farewellPrivateMessage: await service.list(actor(request)) }),
    );

    app.post(
      '/farewellPrivateMessage',
      { schema: { tags, body: farewellInputSchema, response: { 201: farewellDtoSchema } } },
      async (request, reply) =>
        reply.code(201).send(await service.create(requireProfile(request, 'super'), request.body.message)),
    );

    app.put(
      '/farewellPrivateMessage/:id',
      { schema: { tags, params: idParamsSchema, body: farewellInputSchema, response: { 200: farewellDtoSchema } } },
      async (request) => service.update(requireProfile(request, 'super'), request.params.id, request.body.message),
    );

    app.delete(
      '/farewellPrivateMessage/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.remove(requireProfile(request, 'super'), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/farewellPrivateMessageAll',
      { schema: { tags, response: { 200: z.object({ count: z.number() }) } } },
      async (request) => ({ count: await service.removeAll(requireProfile(request, 'super')) }),
    );
  };
}
