/**
 * /api/messagesSchedule and /api/scheduleMessages (client-contract §5.1, our PUT/DELETE). Every profile may schedule
 * and list (what a caller sees is the service's rule); routes parse and delegate.
 */
import fastifyMultipart from '@fastify/multipart';
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
import { fail } from '../../platform/http/errors.js';
import type { MediaStore } from '../../platform/storage/media-store.js';
import type { SchedulesService } from './schedules.service.js';
import { receiveScheduleUpload } from './schedules.upload.js';

const tags = ['schedules'];

export function schedulesRoutes(
  service: SchedulesService,
  upload: { store: MediaStore; maxUploadBytes: number },
): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: upload.maxUploadBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 22 },
    });

    // JSON (scheduleCreateSchema) or multipart (`medias` + the same fields as strings): the body is parsed here.
    app.post(
      '/messagesSchedule',
      {
        schema: {
          tags,
          consumes: ['application/json', 'multipart/form-data'],
          response: { 200: scheduledMessageDtoSchema },
        },
      },
      async (request) => {
        const ctx = actor(request);
        if (request.isMultipart()) {
          const { media, fields } = await receiveScheduleUpload(request, upload.store, ctx.tenantId);
          return service.create(ctx, fields, media);
        }
        const parsed = scheduleCreateSchema.safeParse(request.body ?? {});
        if (!parsed.success) throw fail('ERR_VALIDATION', String(parsed.error.issues[0]?.path[0] ?? 'body'));
        return service.create(ctx, parsed.data);
      },
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
