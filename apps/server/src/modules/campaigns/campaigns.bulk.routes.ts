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
  bulkTicketSendSchema,
  bulkVariableSchema,
  idParamsSchema,
  isBulkTicketSend,
  messageDtoSchema,
} from '@conversa/shared';
import { z } from 'zod';
import { actor, type AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { allowedMediaMime, FileTypeRejectedError, receiveOptionalFile } from '../../platform/http/multipart.js';
import { newMediaKey, type MediaStore } from '../../platform/storage/media-store.js';
import type { BulkService } from './campaigns.bulk.js';
import type { CampaignMedia } from './campaigns.service.js';

const tags = ['mass-sending'];
const response = { 200: bulkBatchDtoSchema };
const sendResponse = { 200: z.union([bulkBatchDtoSchema, messageDtoSchema]) };

/** A JSON body through its schema: ERR_VALIDATION naming the first bad field. */
function parsed<S extends z.ZodType>(schema: S, body: unknown, fallback: string): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw fail('ERR_VALIDATION', String(result.error.issues[0]?.path[0] ?? fallback));
  return result.data;
}

export function bulkRoutes(
  service: BulkService,
  upload: { store: MediaStore; maxUploadBytes: number },
): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: upload.maxUploadBytes, files: 1, fields: 20, fieldSize: 2 * 1024 * 1024, parts: 22 },
    });

    // A body naming a ticket is one send into it (the family's quick-message files); any other is a batch.
    const sendOrBatch = (ctx: AuthedContext, body: unknown) =>
      isBulkTicketSend(body)
        ? service.sendIntoTicket(ctx, parsed(bulkTicketSendSchema, body, 'ticketId'))
        : service.send(ctx, parsed(bulkSendSchema, body, 'arrayNumbers'));

    app.post('/bulk', { schema: { tags, response: sendResponse } }, async (request) =>
      sendOrBatch(actor(request), request.body),
    );

    app.post('/bulkVariable', { schema: { tags, body: bulkVariableSchema, response } }, async (request) =>
      service.sendVariable(actor(request), request.body),
    );

    app.post(
      '/bulkClose',
      { schema: { tags, consumes: ['application/json', 'multipart/form-data'], response: sendResponse } },
      async (request) => {
        const ctx = actor(request);
        if (!request.isMultipart()) return sendOrBatch(ctx, request.body);
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
