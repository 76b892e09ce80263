/** /api/queue (client-contract §8): the list for every profile, changes for supervisors and admins. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema, queueDtoSchema, queueInputSchema } from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { QueuesService } from './queues.service.js';

const tags = ['queues'];

export function queuesRoutes(service: QueuesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/queue', { schema: { tags, response: { 200: z.array(queueDtoSchema) } } }, async (request) =>
      service.listQueues(actor(request)),
    );

    app.post(
      '/queue',
      { schema: { tags, body: queueInputSchema, response: { 201: queueDtoSchema } } },
      async (request, reply) =>
        reply.code(201).send(await service.createQueue(requireProfile(request, 'super'), request.body)),
    );

    app.put(
      '/queue/:id',
      { schema: { tags, params: idParamsSchema, body: queueInputSchema, response: { 200: queueDtoSchema } } },
      async (request) => service.updateQueue(requireProfile(request, 'super'), request.params.id, request.body),
    );

    app.delete(
      '/queue/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.deleteQueue(requireProfile(request, 'super'), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
