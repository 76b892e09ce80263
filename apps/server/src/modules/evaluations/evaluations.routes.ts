/** /api/ticketEvaluations (client-contract §15): ratings; `send` is our client's resolve with a rating. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  evaluationCreateSchema,
  evaluationDtoSchema,
  evaluationListQuerySchema,
  evaluationLogSchema,
  evaluationSendSchema,
  evaluationUpdateSchema,
  idParam,
  idParamsSchema,
} from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { EvaluationsService } from './evaluations.service.js';

const tags = ['evaluations'];

export function evaluationsRoutes(service: EvaluationsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/ticketEvaluations',
      { schema: { tags, querystring: evaluationListQuerySchema, response: { 200: z.array(evaluationDtoSchema) } } },
      async (request) => service.list(requireProfile(request, 'super'), request.query),
    );

    app.post(
      '/ticketEvaluations',
      { schema: { tags, body: evaluationCreateSchema, response: { 201: evaluationDtoSchema } } },
      async (request, reply) => reply.code(201).send(await service.create(actor(request), request.body)),
    );

    app.post(
      '/ticketEvaluations/send',
      { schema: { tags, body: evaluationSendSchema, response: { 201: evaluationDtoSchema } } },
      async (request, reply) => reply.code(201).send(await service.send(actor(request), request.body)),
    );

    app.put(
      '/ticketEvaluations/:id',
      {
        schema: { tags, params: idParamsSchema, body: evaluationUpdateSchema, response: { 200: evaluationDtoSchema } },
      },
      async (request) => service.update(requireProfile(request, 'super'), request.params.id, request.body),
    );

    app.delete(
      '/ticketEvaluations/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.remove(requireProfile(request, 'super'), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/ticketEvaluations/:ticketId/logs',
      {
        schema: { tags, params: z.object({ ticketId: idParam }), response: { 200: z.array(evaluationLogSchema) } },
      },
      async (request) => service.logs(actor(request), request.params.ticketId),
    );
  };
}
