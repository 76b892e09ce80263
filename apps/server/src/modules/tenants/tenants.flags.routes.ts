/**
 * `PUT /tenants<Name>/{id} { id, <field>: value }` (client-contract §10): one call per toggle, each storing its one
 * field (TENANT_FLAG_PATHS). Admins of the tenant; the answer is the tenant's id and all its flags.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  idParamsSchema,
  TENANT_FLAG_PATHS,
  tenantFlagInputSchema,
  tenantFlagsResponseSchema,
  type TenantFlagPath,
} from '@conversa/shared';
import { requireProfile } from '../../platform/http/auth.js';
import type { TenantFlagsService } from './tenants.flags.js';

export function tenantFlagsRoutes(service: TenantFlagsService): FastifyPluginAsyncZod {
  return async (app) => {
    for (const [path, field] of Object.entries(TENANT_FLAG_PATHS) as [
      TenantFlagPath,
      (typeof TENANT_FLAG_PATHS)[TenantFlagPath],
    ][]) {
      app.put(
        `${path}/:id`,
        {
          schema: {
            tags: ['tenants'],
            params: idParamsSchema,
            body: tenantFlagInputSchema(field),
            response: { 200: tenantFlagsResponseSchema },
          },
        },
        async (request) => {
          const value = (request.body as Record<string, string | number>)[field]!;
          return service.saveFlag(requireProfile(request, 'admin'), request.params.id, field, value);
        },
      );
    }
  };
}
