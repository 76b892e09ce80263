/** /api/tags (client-contract §8): the list for every profile, changes for supervisors and admins. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema, tagDtoSchema, tagInputSchema, tagListQuerySchema } from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { TagsService } from './tags.service.js';

const tags = ['tags'];

export function tagsRoutes(service: TagsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/tags',
      { schema: { tags, querystring: tagListQuerySchema, response: { 200: z.array(tagDtoSchema) } } },
      async (request) => service.listTags(actor(request), request.query.isActive),
    );

    app.post(
      '/tags',
      { schema: { tags, body: tagInputSchema, response: { 201: tagDtoSchema } } },
      async (request, reply) =>
        reply.code(201).send(await service.createTag(requireProfile(request, 'super'), request.body)),
    );

    app.put(
      '/tags/:id',
      { schema: { tags, params: idParamsSchema, body: tagInputSchema, response: { 200: tagDtoSchema } } },
      async (request) => service.updateTag(requireProfile(request, 'super'), request.params.id, request.body),
    );

    app.delete(
      '/tags/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.deleteTag(requireProfile(request, 'super'), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
