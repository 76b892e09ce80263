/**
 * The superadmin's channel CRUD across tenants (client-contract §7.1 `/whatsappTenants`): the same rules as a
 * tenant's own channel routes (type rules, connection limit, references), run in the named tenant's context. The
 * channel's tenant is read from the database, never from the echoed body.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { channelDtoSchema, channelInputSchema, idParamsSchema } from '@conversa/shared';
import { withSystem, asTenantId } from '../../platform/db/tenancy.js';
import type { Database } from '../../platform/db/client.js';
import { requireProfile, type AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import type { ChannelsService } from './channels.service.js';
import { findChannelById } from './channels.repository.js';

const tags = ['channels'];
const createBody = channelInputSchema.extend({ tenantId: z.coerce.number().int().positive() });

export function channelsTenantsRoutes(db: Database, service: ChannelsService): FastifyPluginAsyncZod {
  /** The superadmin acting inside the tenant that owns channel `id`. */
  async function inChannelTenant(ctx: AuthedContext, id: number): Promise<AuthedContext> {
    const row = await withSystem(db, 'channels.superadmin', (tx) => findChannelById(tx, id));
    if (!row) throw fail('ERR_NO_WAPP_FOUND');
    return { ...ctx, tenantId: asTenantId(row.tenantId) };
  }

  return async (app) => {
    app.post(
      '/whatsappTenants',
      { schema: { tags, body: createBody, response: { 201: channelDtoSchema } } },
      async (request, reply) => {
        const ctx = requireProfile(request, 'superadmin');
        const { tenantId, ...input } = request.body;
        return reply.code(201).send(await service.createChannel({ ...ctx, tenantId: asTenantId(tenantId) }, input));
      },
    );

    app.get(
      '/whatsappTenants/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: channelDtoSchema } } },
      async (request) => {
        const ctx = await inChannelTenant(requireProfile(request, 'superadmin'), request.params.id);
        return service.getChannel(ctx, request.params.id);
      },
    );

    app.put(
      '/whatsappTenants/:id',
      { schema: { tags, params: idParamsSchema, body: channelInputSchema, response: { 200: channelDtoSchema } } },
      async (request) => {
        const ctx = await inChannelTenant(requireProfile(request, 'superadmin'), request.params.id);
        return service.updateChannel(ctx, request.params.id, request.body);
      },
    );

    app.delete(
      '/whatsappTenants/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        const ctx = await inChannelTenant(requireProfile(request, 'superadmin'), request.params.id);
        await service.deleteChannel(ctx, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
