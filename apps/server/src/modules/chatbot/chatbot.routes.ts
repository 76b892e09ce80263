/**
 * /api/chat-flow* (client-contract §13; decisions §B): reads for every user of the tenant, writes for supervisors and
 * admins; the flow media upload and its public files; and the legacy `/auto-reply` routes (chatbot.auto-reply.routes).
 */
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  chatFlowDtoSchema,
  chatFlowGraphSchema,
  chatFlowInputSchema,
  chatFlowListResponseSchema,
  idParam,
  idParamsSchema,
} from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { sendStoredFile } from '../../platform/http/served-files.js';
import type { Platform } from '../../platform/platform.js';
import { createMediaStore, type MediaStore } from '../../platform/storage/media-store.js';
import { withMediaQuota } from '../../platform/storage/media-quota.js';
import { createMediaQuota } from '../tenants/index.js';
import { autoReplyRoutes } from './chatbot.auto-reply.routes.js';
import { createAutoReplyService } from './chatbot.auto-reply.js';
import { createChatFlowsService, type ChatFlowsService } from './chatbot.flows.js';
import { flowMediaKind, flowMediaMime, flowMediaPath, receiveFlowMedia } from './chatbot.media.js';

const tags = ['chat-flows'];

/**
 * Some clients of the family send the graph's `nodeList` and `lineList` at the top level of the record instead of
 * inside `flow`: such a body is read as that flow (its `flow`, when it has one, wins).
 */
function liftTopLevelGraph(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  if (record.flow !== undefined && record.flow !== null) return body;
  if (!Array.isArray(record.nodeList)) return body;
  const { nodeList, lineList, ...rest } = record;
  const name = typeof record.name === 'string' ? record.name : '';
  return { ...rest, flow: { name, nodeList, lineList: lineList ?? [] } };
}

/** POST without `flow` (nor a top-level graph): the default flow (the reference client always sends one). */
const createChatFlowBodySchema = z.preprocess(
  liftTopLevelGraph,
  chatFlowInputSchema.extend({ flow: chatFlowGraphSchema.optional() }),
);
/** PUT: the whole record, its graph in `flow` or at the top level. */
const updateChatFlowBodySchema = z.preprocess(liftTopLevelGraph, chatFlowInputSchema);
/** The record the client holds; only its id is read. */
const duplicateBodySchema = z.looseObject({ id: idParam });
/** An exported record (`{ name?, isActive?, celularTeste?, flow }`) or a bare graph, plus the client's `id`. */
const importBodySchema = z.union([z.looseObject({ flow: chatFlowGraphSchema }), chatFlowGraphSchema]);
const emptySchema = z.object({});
const uploadedMediaSchema = z.object({
  mediaUrl: z.string(),
  name: z.string(),
  type: z.enum(['image', 'video', 'audio', 'document']),
});
const publicFlowMediaParamsSchema = z.object({
  tenantId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  media: z.string().regex(/^[A-Za-z0-9._-]{1,200}$/),
});

/** The graph of an import body: a record's `flow`, or the body itself without the `id` the client added. */
function importedGraph(body: z.output<typeof importBodySchema>) {
  if ('flow' in body && body.flow) return body.flow as z.output<typeof chatFlowGraphSchema>;
  const { id: _id, ...graph } = body as z.output<typeof chatFlowGraphSchema> & { id?: unknown };
  return graph;
}

interface FlowRouteDeps {
  service: ChatFlowsService;
  store: MediaStore;
  publicUrl: string;
  maxUploadBytes: number;
}

function chatFlowRoutes(deps: FlowRouteDeps): FastifyPluginAsyncZod {
  const { service, store } = deps;
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: deps.maxUploadBytes, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 },
    });

    app.get('/chat-flow', { schema: { tags, response: { 200: chatFlowListResponseSchema } } }, async (request) => ({
      chatFlow: await service.listChatFlows(actor(request)),
    }));

    app.get(
      '/chat-flow/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: chatFlowDtoSchema } } },
      async (request) => service.getChatFlow(actor(request), request.params.id),
    );

    app.post(
      '/chat-flow',
      { schema: { tags, body: createChatFlowBodySchema, response: { 200: chatFlowDtoSchema } } },
      async (request) => service.createChatFlow(requireProfile(request, 'super'), request.body),
    );

    app.put(
      '/chat-flow/:id',
      {
        schema: { tags, params: idParamsSchema, body: updateChatFlowBodySchema, response: { 200: chatFlowDtoSchema } },
      },
      async (request) => service.updateChatFlow(requireProfile(request, 'super'), request.params.id, request.body),
    );

    app.delete(
      '/chat-flow/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: emptySchema } } },
      async (request) => {
        await service.deleteChatFlow(requireProfile(request, 'super'), request.params.id);
        return {};
      },
    );

    app.post(
      '/chat-flow-duplicate',
      { schema: { tags, body: duplicateBodySchema, response: { 200: chatFlowDtoSchema } } },
      async (request) => service.duplicateChatFlow(requireProfile(request, 'super'), request.body.id),
    );

    app.put(
      '/chat-flow-import/:id',
      { schema: { tags, params: idParamsSchema, body: importBodySchema, response: { 200: chatFlowDtoSchema } } },
      async (request) =>
        service.importChatFlow(requireProfile(request, 'super'), request.params.id, importedGraph(request.body)),
    );

    // The profile is checked before any byte is stored.
    app.post(
      '/chat-flow-media',
      { schema: { tags, consumes: ['multipart/form-data'], response: { 200: uploadedMediaSchema } } },
      async (request) => {
        const ctx = requireProfile(request, 'super');
        const file = await receiveFlowMedia(request, store, ctx.tenantId);
        return {
          mediaUrl: `${deps.publicUrl}${flowMediaPath(ctx.tenantId, file.media)}`,
          name: file.name,
          type: flowMediaKind(file.mime),
        };
      },
    );

    // Public, as quick messages' files: the bot's sends give this address to providers; the random name is the
    // credential, and the path's tenant is the stored key's own (another tenant's id finds nothing).
    app.get(
      '/public/chat-flow/:tenantId/:media',
      { config: { public: true }, schema: { tags, params: publicFlowMediaParamsSchema } },
      async (request, reply) => {
        const { tenantId, media } = request.params;
        const mime = flowMediaMime(media);
        const file = mime ? await store.get(`${tenantId}/${media}`) : null;
        if (!mime || !file) throw fail('ERR_NOT_FOUND');
        // Only images, audio and video are shown, typed; everything else downloads (served-files.ts).
        return sendStoredFile(reply, { ...file, mime, name: media, cacheControl: 'public, max-age=3600' });
      },
    );
  };
}

export function chatbotRoutes(platform: Platform): FastifyPluginAsyncZod {
  const { db, events, config } = platform;
  // The same store and quota as chat media and quick messages: one tenant's bytes, one counter.
  const store = withMediaQuota(
    createMediaStore({ root: path.join(config.dataDir, 'media'), s3: config.mediaS3 }),
    createMediaQuota(db, config.mediaTenantQuotaBytes),
  );
  const flows = createChatFlowsService({ db, events, publicUrl: config.publicUrl });
  const autoReply = createAutoReplyService({ db, events });
  return async (app) => {
    await app.register(
      chatFlowRoutes({
        service: flows,
        store,
        publicUrl: config.publicUrl,
        maxUploadBytes: config.mediaMaxUploadBytes,
      }),
    );
    await app.register(autoReplyRoutes(autoReply));
  };
}
