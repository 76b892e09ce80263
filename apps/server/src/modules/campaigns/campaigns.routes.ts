/**
 * /api/campaigns (client-contract §12): supervisors and above (product-spec §2 supervisor menu). Routes parse,
 * authorise and delegate to the service. The contract's paths keep their trailing slashes and the ids the client
 * repeats in the query (`campaignId`) are accepted and ignored: the path names the campaign.
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  campaignContactsAddSchema,
  campaignContactsByTagsSchema,
  campaignDtoSchema,
  campaignDuplicateResponseSchema,
  campaignListResponseSchema,
  campaignRecipientListSchema,
  idParamsSchema,
} from '@conversa/shared';
import { requireProfile } from '../../platform/http/auth.js';
import type { MediaStore } from '../../platform/storage/media-store.js';
import { CAMPAIGN_MIN_PROFILE } from './campaigns.rules.js';
import type { CampaignsService } from './campaigns.service.js';
import { receiveCampaignForm } from './campaigns.upload.js';

const tags = ['campaigns'];
const contactParamsSchema = z.object({
  id: z.coerce.number().int().positive(),
  contactId: z.coerce.number().int().positive(),
});
const addedSchema = z.object({ added: z.number() });
const okSchema = z.object({ ok: z.literal(true) });

export function campaignsRoutes(
  service: CampaignsService,
  upload: { store: MediaStore; maxUploadBytes: number },
): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: upload.maxUploadBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 22 },
    });
    const manager = (request: Parameters<typeof requireProfile>[0]) => requireProfile(request, CAMPAIGN_MIN_PROFILE);

    app.get('/campaigns', { schema: { tags, response: { 200: campaignListResponseSchema } } }, async (request) =>
      service.list(manager(request)),
    );

    app.get(
      '/campaigns/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: campaignDtoSchema } } },
      async (request) => service.show(manager(request), request.params.id),
    );

    app.post(
      '/campaigns',
      { schema: { tags, consumes: ['application/json', 'multipart/form-data'], response: { 200: campaignDtoSchema } } },
      async (request) => {
        const ctx = manager(request);
        const { input, media } = await receiveCampaignForm(request, upload.store, ctx.tenantId);
        return service.create(ctx, input, media);
      },
    );

    app.put(
      '/campaigns/:id',
      {
        schema: {
          tags,
          params: idParamsSchema,
          consumes: ['application/json', 'multipart/form-data'],
          response: { 200: campaignDtoSchema },
        },
      },
      async (request) => {
        const ctx = manager(request);
        const { input, media } = await receiveCampaignForm(request, upload.store, ctx.tenantId);
        return service.update(ctx, request.params.id, input, media);
      },
    );

    app.delete(
      '/campaigns/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: okSchema } } },
      async (request) => {
        await service.remove(manager(request), request.params.id);
        return { ok: true as const };
      },
    );

    app.post(
      '/campaigns/start/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: campaignDtoSchema } } },
      async (request) => service.start(manager(request), request.params.id),
    );

    app.post(
      '/campaigns/cancel/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: campaignDtoSchema } } },
      async (request) => service.cancel(manager(request), request.params.id),
    );

    app.post(
      '/campaigns/:id/duplicate',
      { schema: { tags, params: idParamsSchema, response: { 200: campaignDuplicateResponseSchema } } },
      async (request) => ({
        status: 'success' as const,
        data: await service.duplicate(manager(request), request.params.id),
      }),
    );

    app.get(
      '/campaigns/contacts/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: campaignRecipientListSchema } } },
      async (request) => service.recipients(manager(request), request.params.id),
    );

    app.post(
      '/campaigns/contacts/:id',
      { schema: { tags, params: idParamsSchema, body: campaignContactsAddSchema, response: { 200: addedSchema } } },
      async (request) =>
        service.addRecipients(
          manager(request),
          request.params.id,
          request.body.map((contact) => contact.id),
        ),
    );

    // Ours: every contact of the chosen tags (the contract's client adds a tag's contacts one list at a time).
    app.post(
      '/campaigns/:id/contacts/tags',
      {
        schema: { tags, params: idParamsSchema, body: campaignContactsByTagsSchema, response: { 200: addedSchema } },
      },
      async (request) => service.addRecipientsByTags(manager(request), request.params.id, request.body.tagIds),
    );

    app.delete(
      '/campaigns/contacts/:id/:contactId',
      { schema: { tags, params: contactParamsSchema, response: { 200: okSchema } } },
      async (request) => {
        await service.removeRecipient(manager(request), request.params.id, request.params.contactId);
        return { ok: true as const };
      },
    );

    app.delete(
      '/campaigns/deleteall/contacts/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: okSchema } } },
      async (request) => {
        await service.removeAllRecipients(manager(request), request.params.id);
        return { ok: true as const };
      },
    );
  };
}
