/**
 * /api/messagesSchedule and /api/scheduleMessages (client-contract §5.1, our PUT/DELETE). Every profile may schedule
 * and list (what a caller sees is the service's rule); routes parse and delegate.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  idParamsSchema,
  scheduleCreateSchema,
  scheduledMessageDtoSchema,
  scheduleListQuerySchema,
  scheduleListResponseSchema,
  scheduleUpdateSchema,
} from '@conversa/shared';
import { actor } from '../../platform/http/auth.js';
import type { SchedulesService } from './schedules.service.js';

const tags = ['schedules'];

export function schedulesRoutes(service: SchedulesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/messagesSchedule',
      { schema: { tags, body: scheduleCreateSchema, response: { 200: scheduledMessageDtoSchema } } },
      async (request) => service.create(actor(request), request.body),
    );

    app.get(
      '/scheduleMessages',
      { schema: { tags, querystring: scheduleListQuerySchema, response: { 200: scheduleListResponseSchema } } },
      async (request) => service.list(actor(request), request.query),
    );

    app.put(
      '/messagesSchedule/:id',
      {
        schema: {
          tags,
          params: idParamsSchema,
          body: scheduleUpdateSchema,
          response: { 200: scheduledMessageDtoSchema },
        },
      },
      async (request) => service.update(actor(request), request.params.id, request.body),
    );

    app.delete(
      '/messagesSchedule/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: scheduledMessageDtoSchema } } },
      async (request) => service.cancel(actor(request), request.params.id),
    );
  };
}
