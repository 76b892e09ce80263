/** /api/settings: the tenant's key/value settings (client-contract §9). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { settingDtoSchema } from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { SettingsService } from './settings.service.js';

const keyParamsSchema = z.object({ key: z.string().max(200) });

/**
 * `{ key, value }`: any key (unknown ones are accepted and ignored, issue 23 client item 8); a known key's value is
 * a string of at most 4,000 characters, checked by the service with the key's own rule.
 */
const updateBodySchema = z.object({
  key: z.string().min(1).max(200),
  value: z.unknown(),
});

export function settingsRoutes(service: SettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/settings',
      { schema: { tags: ['settings'], response: { 200: z.array(settingDtoSchema) } } },
      async (request) => service.listTenantSettings(actor(request)),
    );

    app.get(
      '/settings/:key',
      { schema: { tags: ['settings'], params: keyParamsSchema, response: { 200: settingDtoSchema } } },
      async (request) => service.getSetting(actor(request), request.params.key),
    );

    // The reference client puts `undefined` in the path (client-contract §21.1): the key comes from the body.
    app.put(
      '/settings/:key',
      {
        schema: {
          tags: ['settings'],
          params: keyParamsSchema,
          body: updateBodySchema,
          response: { 200: settingDtoSchema },
        },
      },
      async (request) => service.updateSetting(requireProfile(request, 'admin'), request.body),
    );
  };
}
