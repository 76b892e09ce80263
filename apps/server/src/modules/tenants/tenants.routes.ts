/**
 * /api/tenants (client-contract §10, §11) and the public plan catalogue /api/plan (sign-up page, no token).
 * GET /tenants/{id} ignores the id: the reference client literally asks for /tenants/undefined. The static
 * /tenants/... paths (settings.preferences.routes.ts, registered by the settings module) win over /tenants/:id in the router whatever the order.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createTenantInputSchema,
  idParamsSchema,
  ownTenantResponseSchema,
  plansResponseSchema,
  readTenantFlags,
  tenantDtoSchema,
  tenantHubTokenInputSchema,
  tenantListResponseSchema,
  tenantMetaTokensInputSchema,
  tenantTokensResponseSchema,
  updateTenantInputSchema,
  type PlanDto,
  type TenantDto,
} from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { PlanRow, TenantRow } from './tenants.repository.js';
import type { TenantsService } from './tenants.service.js';
import type { TenantFlagsService } from './tenants.flags.js';
import { tenantFlagsRoutes } from './tenants.flags.routes.js';
import { tokensStateOf, type TenantTokensService } from './tenants.tokens.js';

export const toTenantDto = (row: TenantRow): TenantDto => ({
  id: row.id,
  status: row.status,
  name: row.name,
  identity: row.identity,
  maxUsers: row.maxUsers,
  maxConnections: row.maxConnections,
  trial: row.trial,
  trialPeriod: row.trialPeriod,
  hideUnoficial: row.hideUnofficial,
  mediaQuotaBytes: row.mediaQuotaBytes,
  wuzapiHost: row.wuzapiHost,
  evoHost: row.evoHost,
  evoTokenConfigured: Boolean(row.evoToken),
  ...tokensStateOf(row),
  timezone: row.timezone,
  createdAt: row.createdAt.toISOString(),
});

const toPlanDto = (row: PlanRow): PlanDto => ({
  id: row.id,
  name: row.name,
  value: Number(row.value),
  connections: row.connections,
  users: row.users,
  trial: row.trial,
  trialPeriod: row.trialPeriod,
});

const anyIdParamsSchema = z.object({ id: z.string().max(100) });
const noContent = { 204: z.null().describe('No content') };

export function tenantsRoutes(
  service: TenantsService,
  flags: TenantFlagsService,
  tokens: TenantTokensService,
): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(tenantFlagsRoutes(flags));

    app.get(
      '/plan',
      { config: { public: true }, schema: { tags: ['tenants'], response: { 200: plansResponseSchema } } },
      async () => ({ plan: (await service.listPublicPlans()).map(toPlanDto) }),
    );

    app.get(
      '/tenants',
      { schema: { tags: ['tenants'], response: { 200: tenantListResponseSchema } } },
      async (request) => (await service.listTenants(requireProfile(request, 'superadmin'))).map(toTenantDto),
    );

    app.get(
      '/tenants/:id',
      { schema: { tags: ['tenants'], params: anyIdParamsSchema, response: { 200: ownTenantResponseSchema } } },
      async (request) => {
        const tenant = await service.getOwnTenant(actor(request));
        return [{ ...toTenantDto(tenant), ...readTenantFlags(tenant.flags) }];
      },
    );

    app.post(
      '/tenants',
      { schema: { tags: ['tenants'], body: createTenantInputSchema, response: { 201: tenantDtoSchema } } },
      async (request, reply) => {
        const tenant = await service.createTenant(requireProfile(request, 'superadmin'), request.body);
        return reply.status(201).send(toTenantDto(tenant));
      },
    );

    app.put(
      '/tenantsUpdate/:id',
      {
        schema: {
          tags: ['tenants'],
          params: idParamsSchema,
          body: updateTenantInputSchema,
          response: { 200: tenantDtoSchema },
        },
      },
      async (request) =>
        toTenantDto(await service.updateTenant(requireProfile(request, 'superadmin'), request.params.id, request.body)),
    );

    // Write-only tokens (issue 15): the answer tells only whether each is stored.
    const tokenRoute = { tags: ['tenants'], params: idParamsSchema, response: { 200: tenantTokensResponseSchema } };
    app.put(
      '/tenantsMetaUpdate/:id',
      { schema: { ...tokenRoute, body: tenantMetaTokensInputSchema } },
      async (request) => tokens.saveMetaTokens(requireProfile(request, 'admin'), request.params.id, request.body),
    );
    app.put('/tenantsHubToken/:id', { schema: { ...tokenRoute, body: tenantHubTokenInputSchema } }, async (request) =>
      tokens.saveHubToken(requireProfile(request, 'admin'), request.params.id, request.body),
    );

    app.delete(
      '/tenants/:id',
      { schema: { tags: ['tenants'], params: idParamsSchema, response: noContent } },
      async (request, reply) => {
        await service.deleteTenant(requireProfile(request, 'superadmin'), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
