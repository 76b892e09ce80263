/**
 * Mass sending routes (client-contract §12): `/bulk/` and `/bulkVariable/` take JSON, `/bulkClose/` JSON or multipart
 * (its file is `medias`); the batches list, one batch and its cancel. Every profile (the agent menu has Mass sending,
 * product-spec §2); the service checks the channel.
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bulkBatchDtoSchema,
  bulkBatchListSchema,
  bulkFormFieldsSchema,
  bulkSendSchema,
  bulkVariableSchema,
  idParamsSchema,
} from '@conversa/shared';
import { actor } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { allowedMediaMime, FileTypeRejectedError, receiveOptionalFile } from '../../platform/http/multipart.js';
import { newMediaKey, type MediaStore } from '../../platform/storage/media-store.js';
import type { BulkService } from './campaigns.bulk.js';
import type { CampaignMedia } from './campaigns.service.js';

const tags = ['mass-sending'];
const response = { 200: bulkBatchDtoSchema };

export function bulkRoutes(
  service: BulkService,
  upload: { store: MediaStore; maxUploadBytes: number },
): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: upload.maxUploadBytes, files: 1, fields: 20, fieldSize: 2 * 1024 * 1024, parts: 22 },
    });

    app.post('/bulk', { schema: { tags, body: bulkSendSchema, response } }, async (request) =>
      service.send(actor(request), request.body),
    );

    app.post('/bulkVariable', { schema: { tags, body: bulkVariableSchema, response } }, async (request) =>
      service.sendVariable(actor(request), request.body),
    );

    app.post(
      '/bulkClose',
      { schema: { tags, consumes: ['application/json', 'multipart/form-data'], response } },
      async (request) => {
        const ctx = actor(request);
        if (!request.isMultipart()) {
          const parsed = bulkSendSchema.safeParse(request.body);
          if (!parsed.success) {
            throw fail('ERR_VALIDATION', String(parsed.error.issues[0]?.path[0] ?? 'arrayNumbers'));
          }
          return service.send(ctx, parsed.data);
        }
        const { saved, fields } = await receiveOptionalFile(request, {
          fileField: 'medias',
          fields: bulkFormFieldsSchema,
          fallbackField: 'arrayNumbers',
          async save(part): Promise<CampaignMedia> {
            if (!allowedMediaMime(part.mimetype)) {
              part.file.resume();
              throw new FileTypeRejectedError('medias');
            }
            const key = newMediaKey(ctx.tenantId, part.filename);
            const { size } = await upload.store.put(key, part.file, part.mimetype);
            return { key, name: part.filename, mime: part.mimetype, size };
          },
          discard: (file) => upload.store.delete(file.key),
        });
        return service.sendForm(ctx, fields, saved);
      },
    );

    app.get('/bulk', { schema: { tags, response: { 200: bulkBatchListSchema } } }, async (request) =>
      service.list(actor(request)),
    );

    app.get('/bulk/:id', { schema: { tags, params: idParamsSchema, response } }, async (request) =>
      service.show(actor(request), request.params.id),
    );

    app.post('/bulk/:id/cancel', { schema: { tags, params: idParamsSchema, response } }, async (request) =>
      service.cancel(actor(request), request.params.id),
    );
  };
}
