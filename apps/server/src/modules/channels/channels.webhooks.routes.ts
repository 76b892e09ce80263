/**
 * `POST /api/webhooks/{provider}/{channelId}`: public (providers carry no user token); the channel's own secret is
 * the credential, checked by its adapter. Answers 2xx only once every event of the call is stored.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WebhookIntake } from './channels.intake.js';

const params = z.object({
  provider: z.string().regex(/^[a-z_]{2,30}$/),
  channelId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
const response = z.object({ ok: z.literal(true), received: z.number(), ignored: z.boolean() });

export function webhooksRoutes(intake: WebhookIntake): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/webhooks/:provider/:channelId',
      {
        config: { public: true },
        // The body is the provider's own format; its adapter validates it (a malformed one answers 400).
        schema: { tags: ['webhooks'], params, body: z.unknown(), response: { 200: response } },
      },
      async (request) => {
        const { provider, channelId } = request.params;
        const result = await intake.receive(provider, channelId, { headers: request.headers, body: request.body });
        return { ok: true as const, ...result };
      },
    );
  };
}
