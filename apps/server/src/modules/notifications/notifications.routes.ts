/** /api/notifications (client-contract §16): every user reads and marks their own; admins post tenant-wide ones. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  notificationDtoSchema,
  notificationInputSchema,
  notificationListQuerySchema,
  notificationListSchema,
  notificationUpdateSchema,
} from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { NotificationsService } from './notifications.service.js';

const tags = ['notifications'];

export function notificationsRoutes(service: NotificationsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/notifications',
      { schema: { tags, querystring: notificationListQuerySchema, response: { 200: notificationListSchema } } },
      async (request) => service.listNotifications(actor(request), request.query),
    );

    app.post(
      '/notifications',
      { schema: { tags, body: notificationInputSchema, response: { 201: notificationDtoSchema } } },
      async (request, reply) =>
        reply.code(201).send(await service.createNotification(requireProfile(request, 'admin'), request.body)),
    );

    // Declared before /notifications/:id so "readAll" is never taken for an id.
    app.put(
      '/notifications/readAll',
      { schema: { tags, response: { 200: z.object({ updated: z.number() }) } } },
      async (request) => service.markAllRead(actor(request)),
    );

    app.put(
      '/notifications/:id',
      {
        schema: {
          tags,
          params: idParamsSchema,
          body: notificationUpdateSchema,
          response: { 200: notificationDtoSchema },
        },
      },
      async (request) => service.setRead(actor(request), request.params.id, request.body.isRead),
    );

    app.delete(
      '/notifications',
      { schema: { tags, response: { 200: z.object({ deleted: z.number() }) } } },
      async (request) => service.deleteOwnNotifications(actor(request)),
    );

    app.delete(
      '/notifications/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.deleteNotification(actor(request), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
