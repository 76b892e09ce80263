/**
 * /api/contacts/upload, /api/contacts/export (+ the public download), /api/contacts/duplicates and
 * /api/contacts/merge: the bulk contact tools of the contacts screen (client-contract §6).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import {
  contactDtoSchema,
  contactDuplicatesResponseSchema,
  contactExportQuerySchema,
  contactExportResponseSchema,
  contactImportAcceptedSchema,
  contactMergeInputSchema,
} from '@conversa/shared';
import { requireProfile } from '../../platform/http/auth.js';
import type { ExportService } from './contacts.export.js';
import type { ImportService } from './contacts.import.service.js';
import type { MergeService } from './contacts.merge.js';
import { IMPORT_FILE_MAX_BYTES, receiveImportUpload } from './contacts.upload.js';

const tags = ['contacts'];
const tokenParamsSchema = z.object({ token: z.string().min(1).max(500) });

export function contactFilesRoutes(deps: {
  imports: ImportService;
  exports: ExportService;
  merge: MergeService;
  importsDir: string;
}): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: IMPORT_FILE_MAX_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 },
    });

    // multipart: file (.csv or .xlsx), tags and wallets (comma lists of ids), validContact ('true'/'false').
    app.post(
      '/contacts/upload',
      { schema: { tags, consumes: ['multipart/form-data'], response: { 202: contactImportAcceptedSchema } } },
      async (request, reply) => {
        const ctx = requireProfile(request, 'super');
        const { upload, fields } = await receiveImportUpload(request, deps.importsDir);
        return reply.code(202).send(await deps.imports.startImport(ctx, upload, fields));
      },
    );

    app.post(
      '/contacts/export',
      { schema: { tags, querystring: contactExportQuerySchema, response: { 200: contactExportResponseSchema } } },
      async (request) => deps.exports.exportContacts(requireProfile(request, 'super'), request.query.format),
    );

    // Public: the signed, short-lived token in the link is the credential (a browser download carries no header).
    app.get(
      '/contacts/export/:token',
      { config: { public: true }, schema: { tags, params: tokenParamsSchema } },
      async (request, reply) => {
        const { stream, filename, contentType } = deps.exports.openDownload(request.params.token);
        return reply
          .type(contentType)
          .header('Content-Disposition', `attachment; filename="${filename}"`)
          .header('Cache-Control', 'no-store')
          .send(stream);
      },
    );

    app.get(
      '/contacts/duplicates',
      { schema: { tags, response: { 200: contactDuplicatesResponseSchema } } },
      async (request) => deps.merge.findDuplicates(requireProfile(request, 'super')),
    );

    app.post(
      '/contacts/merge',
      { schema: { tags, body: contactMergeInputSchema, response: { 200: contactDtoSchema } } },
      async (request) => deps.merge.mergeContacts(requireProfile(request, 'super'), request.body),
    );
  };
}
