/**
 * /api/fastreply (client-contract §8): the list for every profile, changes for supervisors and admins (multipart
 * with an optional `medias` file, or JSON); and the public files `/api/public/{tenantId}/{media}`.
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema, quickMessageDtoSchema } from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import { sendStoredFile } from '../../platform/http/served-files.js';
import type { MediaStore } from '../../platform/storage/media-store.js';
import type { QuickMessagesService } from './quick-messages.service.js';
import { receiveQuickMessage } from './quick-messages.upload.js';

const tags = ['quick-messages'];
const consumes = ['application/json', 'multipart/form-data'];
export const publicMediaParamsSchema = z.object({
  tenantId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  media: z.string().regex(/^[A-Za-z0-9._-]{1,200}$/),
});

export interface QuickMessagesRouteDeps {
  service: QuickMessagesService;
  store: MediaStore;
  /** Upload limit (bytes): the same as chat media. */
  maxUploadBytes: number;
}

export function quickMessagesRoutes(deps: QuickMessagesRouteDeps): FastifyPluginAsyncZod {
  const { service, store } = deps;
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: deps.maxUploadBytes, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 },
    });

    app.get('/fastreply', { schema: { tags, response: { 200: z.array(quickMessageDtoSchema) } } }, async (request) =>
      service.listQuickMessages(actor(request)),
    );

    // The body is read here (multipart or JSON): the profile is checked before any file is stored.
    app.post(
      '/fastreply',
      { schema: { tags, consumes, response: { 201: quickMessageDtoSchema } } },
      async (request, reply) => {
        const ctx = requireProfile(request, 'super');
        const { fields, file } = await receiveQuickMessage(request, store, ctx.tenantId);
        return reply.code(201).send(await service.createQuickMessage(ctx, fields, file));
      },
    );

    app.put(
      '/fastreply/:id',
      { schema: { tags, consumes, params: idParamsSchema, response: { 200: quickMessageDtoSchema } } },
      async (request) => {
        const ctx = requireProfile(request, 'super');
        const { fields, file } = await receiveQuickMessage(request, store, ctx.tenantId);
        return service.updateQuickMessage(ctx, request.params.id, fields, file);
      },
    );

    app.delete(
      '/fastreply/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.deleteQuickMessage(requireProfile(request, 'super'), request.params.id);
        return reply.code(204).send(null);
      },
    );

    // Public: clients put `{URL_API}/public/{tenantId}/{media}` in <img>/<audio> tags and bulk sends; the random
    // name is the credential.
    app.get(
      '/public/:tenantId/:media',
      { config: { public: true }, schema: { tags, params: publicMediaParamsSchema } },
      async (request, reply) => {
        const file = await service.openPublicMedia(request.params.tenantId, request.params.media);
        // Only images, audio and video are shown, typed; everything else downloads (served-files.ts).
        return sendStoredFile(reply, { ...file, cacheControl: 'public, max-age=3600' });
      },
    );
  };
}
