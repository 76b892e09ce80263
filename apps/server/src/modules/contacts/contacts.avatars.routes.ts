/**
 * GET /api/contacts/avatar/{token}: a contact's stored WhatsApp picture (contacts.avatars.ts). Public because an
 * <img> cannot send a bearer token: the signed URL is the credential. The URL changes whenever the picture does, so
 * the answer may be cached for good (privately: it is a person's picture).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fail } from '../../platform/http/errors.js';
import { sendStoredFile } from '../../platform/http/served-files.js';
import type { ContactAvatars } from './contacts.avatars.js';

const tokenParamsSchema = z.object({ token: z.string().min(1).max(500) });

export function contactAvatarRoutes(avatars: ContactAvatars): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/contacts/avatar/:token',
      { config: { public: true }, schema: { tags: ['contacts'], params: tokenParamsSchema } },
      async (request, reply) => {
        const picture = await avatars.open(request.params.token);
        if (!picture) throw fail('ERR_NOT_FOUND');
        // The stored types are raster images; served-files.ts still decides, as for every stored file.
        return sendStoredFile(reply, {
          ...picture,
          name: 'avatar',
          cacheControl: 'private, max-age=31536000, immutable',
        });
      },
    );
  };
}
