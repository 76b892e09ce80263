/** /api/userTenants: the superadmin's view of every tenant's users (client-contract §3). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createUserTenantInputSchema,
  deleteUserTenantInputSchema,
  idParamsSchema,
  updateUserTenantInputSchema,
  userTenantDtoSchema,
  userTenantListQuerySchema,
  userTenantListResponseSchema,
} from '@conversa/shared';
import { requireProfile } from '../../platform/http/auth.js';
import { toUserTenantDto } from './users.dto.js';
import type { UserTenantsService } from './user-tenants.service.js';

const tags = ['users'];

export function userTenantsRoutes(service: UserTenantsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/userTenants',
      { schema: { tags, querystring: userTenantListQuerySchema, response: { 200: userTenantListResponseSchema } } },
      async (request) => {
        const ctx = requireProfile(request, 'superadmin');
        const { rows, count, hasMore } = await service.listUserTenants(ctx, request.query);
        return { users: rows.map(toUserTenantDto), count, hasMore };
      },
    );

    app.post(
      '/userTenants',
      { schema: { tags, body: createUserTenantInputSchema, response: { 201: userTenantDtoSchema } } },
      async (request, reply) => {
        const row = await service.createUserTenant(requireProfile(request, 'superadmin'), request.body);
        return reply.code(201).send(toUserTenantDto(row));
      },
    );

    app.put(
      '/userTenants/:id',
      {
        schema: {
          tags,
          params: idParamsSchema,
          body: updateUserTenantInputSchema,
          response: { 200: userTenantDtoSchema },
        },
      },
      async (request) => {
        const ctx = requireProfile(request, 'superadmin');
        return toUserTenantDto(await service.updateUserTenant(ctx, request.params.id, request.body));
      },
    );

    // DELETE with a JSON body (client-contract §21.4).
    app.delete(
      '/userTenants/:id',
      { schema: { tags, params: idParamsSchema, body: deleteUserTenantInputSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        const ctx = requireProfile(request, 'superadmin');
        await service.removeUserFromTenant(ctx, request.params.id, request.body.tenantId);
        return reply.code(204).send(null);
      },
    );
  };
}
