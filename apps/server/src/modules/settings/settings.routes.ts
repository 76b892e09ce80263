/** /api/settings: the tenant's key/value settings (client-contract §9). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { settingDtoSchema, updateSettingInputSchema } from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { SettingsService } from './settings.service.js';

const keyParamsSchema = z.object({ key: z.string().max(200) });

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
          body: updateSettingInputSchema,
          response: { 200: settingDtoSchema },
        },
      },
      async (request) => service.updateSetting(requireProfile(request, 'admin'), request.body),
    );
  };
}
