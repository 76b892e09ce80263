/**
 * GET /api/contacts/avatar/{token}: a contact's stored WhatsApp picture (contacts.avatars.ts). Public because an
 * <img> cannot send a bearer token: the signed URL is the credential. The URL changes whenever the picture does, so
 * the answer may be cached for good (privately: it is a person's picture).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fail } from '../../platform/http/errors.js';
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
        return (
          reply
            .type(picture.mime)
            .header('Content-Length', picture.size)
            .header('X-Content-Type-Options', 'nosniff')
            .header('Content-Security-Policy', "default-src 'none'; sandbox")
            // The link is the credential: pages on another address than PUBLIC_URL (an IP, a second host name, a
            // client on another origin) may show it, whatever the app-wide same-origin resource policy says.
            .header('Cross-Origin-Resource-Policy', 'cross-origin')
            .header('Cache-Control', 'private, max-age=31536000, immutable')
            .send(picture.stream)
        );
      },
    );
  };
}
