/**
 * The channel calls of client-contract §7.1 ("whatsapp" records): every user reads the tenant's channels (ticket
 * filters and pickers need them); supervisors and above manage them (the spec's supervisor menu has Channels);
 * the superadmin sees every tenant's.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  channelDtoSchema,
  channelInputSchema,
  channelSessionStateSchema,
  idParamsSchema,
  restartSessionSchema,
  setDefaultChannelSchema,
  tenantChannelSummarySchema,
} from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import { connectCodesFor } from './channels.dto.js';
import type { ChannelsService } from './channels.service.js';
import type { SessionsService } from './channels.sessions.js';

const tags = ['channels'];
const session = { tags, params: idParamsSchema, response: { 200: channelSessionStateSchema } };

export function channelsRoutes(service: ChannelsService, sessions: SessionsService): FastifyPluginAsyncZod {
  return async (app) => {
    // Every profile reads the channels; the QR and pairing codes only those who may connect them (channels.dto.ts).
    app.get('/whatsapp', { schema: { tags, response: { 200: z.array(channelDtoSchema) } } }, async (request) => {
      const ctx = actor(request);
      return (await service.listChannels(ctx)).map((dto) => connectCodesFor(ctx.profile, dto));
    });

    app.get(
      '/whatsapp/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: channelDtoSchema } } },
      async (request) => {
        const ctx = actor(request);
        return connectCodesFor(ctx.profile, await service.getChannel(ctx, request.params.id));
      },
    );

    app.post(
      '/whatsapp',
      { schema: { tags, body: channelInputSchema, response: { 201: channelDtoSchema } } },
      async (request, reply) =>
        reply.code(201).send(await service.createChannel(requireProfile(request, 'admin'), request.body)),
    );

    app.put(
      '/whatsapp/:id',
      { schema: { tags, params: idParamsSchema, body: channelInputSchema, response: { 200: channelDtoSchema } } },
      async (request) => service.updateChannel(requireProfile(request, 'admin'), request.params.id, request.body),
    );

    app.delete(
      '/whatsapp/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.deleteChannel(requireProfile(request, 'admin'), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post('/whatsappsession/:id', { schema: session }, async (request) =>
      sessions.startSession(requireProfile(request, 'admin'), request.params.id),
    );

    // `{ isQrcode: true }` asks for a new QR code; for channels without one it is a new connection attempt.
    app.put('/whatsappsession/:id', { schema: { ...session, body: restartSessionSchema } }, async (request) =>
      sessions.restartSession(requireProfile(request, 'admin'), request.params.id, {
        pairingNumber: request.body?.pairingNumber,
      }),
    );

    app.delete('/whatsappsession/:id', { schema: session }, async (request) =>
      sessions.stopSession(requireProfile(request, 'admin'), request.params.id),
    );

    app.post(
      '/setDefault',
      { schema: { tags, body: setDefaultChannelSchema, response: { 200: channelDtoSchema } } },
      async (request) => service.setDefault(requireProfile(request, 'admin'), request.body.whatsappId),
    );

    app.post(
      '/whatsappRemovePicture/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: channelDtoSchema } } },
      async (request) => service.removePicture(requireProfile(request, 'admin'), request.params.id),
    );

    app.get(
      '/whatsappTenantsAll',
      { schema: { tags, response: { 200: z.array(tenantChannelSummarySchema) } } },
      async (request) => {
        requireProfile(request, 'superadmin');
        return service.listAllTenantsChannels();
      },
    );
  };
}
