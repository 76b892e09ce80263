/** /api/reasons (client-contract §8): the reasons a ticket is resolved with. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema, reasonDtoSchema, reasonInputSchema, reasonListResponseSchema } from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { ReasonsService } from './reasons.service.js';

const tags = ['reasons'];

export function reasonsRoutes(service: ReasonsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/reasons', { schema: { tags, response: { 200: reasonListResponseSchema } } }, async (request) => ({
      reasons: await service.list(actor(request)),
    }));

    app.post(
      '/reasons',
      { schema: { tags, body: reasonInputSchema, response: { 201: reasonDtoSchema } } },
      async (request, reply) =>
        reply.code(201).send(await service.create(requireProfile(request, 'super'), request.body.name)),
    );

    app.put(
      '/reasons/:id',
      { schema: { tags, params: idParamsSchema, body: reasonInputSchema, response: { 200: reasonDtoSchema } } },
      async (request) => service.update(requireProfile(request, 'super'), request.params.id, request.body.name),
    );

    app.delete(
      '/reasons/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.remove(requireProfile(request, 'super'), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
