/**
 * `POST /api/webhooks/{provider}/{channelId}`: public (providers carry no user token); the channel's own secret is
 * the credential, checked by its adapter. Answers 2xx only once every event of the call is stored.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WebhookIntake } from './channels.intake.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body's bytes as received, kept by the webhook route's parsers (signatures are over these bytes). */
    rawBody?: Buffer;
  }
}

const params = z.object({
  provider: z.string().regex(/^[a-z_]{2,30}$/),
  channelId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
const response = z.object({ ok: z.literal(true), received: z.number(), ignored: z.boolean() });

const badBody = (message: string) => Object.assign(new Error(message), { statusCode: 400 });

export function webhooksRoutes(intake: WebhookIntake): FastifyPluginAsyncZod {
  return async (app) => {
    // Parsers of this plugin only: they keep the raw bytes (HMAC-signed webhooks, Wuzapi) and accept form bodies
    // (Wuzapi's default `jsonData=...&token=...`), parsed to a plain object of strings.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      const raw = body as Buffer;
      request.rawBody = raw;
      if (raw.length === 0) return done(null, undefined);
      try {
        done(null, JSON.parse(raw.toString('utf8')) as unknown);
      } catch {
        done(badBody('body is not valid JSON'), undefined);
      }
    });
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (request, body, done) => {
      const raw = body as Buffer;
      request.rawBody = raw;
      done(null, Object.fromEntries(new URLSearchParams(raw.toString('utf8'))));
    });

    app.post(
      '/webhooks/:provider/:channelId',
      {
        config: { public: true },
        // The body is the provider's own format; its adapter validates it (a malformed one answers 400).
        schema: { tags: ['webhooks'], params, body: z.unknown(), response: { 200: response } },
      },
      async (request) => {
        const { provider, channelId } = request.params;
        const result = await intake.receive(provider, channelId, {
          headers: request.headers,
          body: request.body,
          rawBody: request.rawBody,
        });
        return { ok: true as const, ...result };
      },
    );
  };
}
