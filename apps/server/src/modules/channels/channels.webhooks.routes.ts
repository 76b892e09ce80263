/**
 * `POST /api/webhooks/{provider}/{channelId}`: public (providers carry no user token); the channel's own secret is
 * the credential, checked by its adapter. Answers 2xx only once every event of the call is stored.
 *
 * Meta channels (waba, messenger, instagram) also answer Meta's subscription check on the same path (`GET`, verify
 * token derived from the channel's webhook secret), and Meta's app-level URL `GET/POST /api/webhooks/meta` routes
 * each part of a POST to its channel by provider id (providers/meta/meta.webhook-routing.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fail } from '../../platform/http/errors.js';
import { z } from 'zod';
import { META_CHANNEL_TYPES } from '@conversa/shared';
import type { WebhookIntake } from './channels.intake.js';
import { answerMetaVerification, metaVerifyTokenOf } from './providers/meta/meta.signature.js';
import type { MetaWebhookRouter } from './providers/meta/meta.webhook-routing.js';
import { GATEWAY_CHANNEL_TYPES } from './sessions/session-adapter.js';

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

/** How large a QR gateway's webhook may be (a login's history in one call). */
export const GATEWAY_WEBHOOK_MAX_BYTES = 32 * 1024 * 1024;

const badBody = (message: string) => Object.assign(new Error(message), { statusCode: 400 });

const metaResponse = z.object({ ok: z.literal(true), received: z.number(), ignored: z.number() });
/** Meta's subscription check: `hub.mode`, `hub.verify_token`, `hub.challenge` (answered as plain text). */
const verificationQuery = z
  .object({
    'hub.mode': z.string().max(40).optional(),
    'hub.verify_token': z.string().max(200).optional(),
    'hub.challenge': z.string().max(200).optional(),
  })
  .passthrough();

export interface MetaWebhookOptions {
  router: MetaWebhookRouter;
  /** META_VERIFY_TOKEN: the app-level URL's verify token (unset: its verification GET answers 403). */
  verifyToken: string | null | undefined;
}

export function webhooksRoutes(intake: WebhookIntake, meta?: MetaWebhookOptions): FastifyPluginAsyncZod {
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

    const schema = { tags: ['webhooks'], params, body: z.unknown(), response: { 200: response } };
    // The body is the provider's own format; its adapter validates it (a malformed one answers 400).
    const receive = async (provider: string, channelId: number, request: FastifyRequest) => {
      const result = await intake.receive(provider, channelId, {
        headers: request.headers,
        body: request.body,
        rawBody: request.rawBody,
      });
      return { ok: true as const, ...result };
    };
    app.post('/webhooks/:provider/:channelId', { config: { public: true }, schema }, (request) =>
      receive(request.params.provider, request.params.channelId, request),
    );

    // Meta's verification GET of a channel's own URL: the challenge echoed as plain text, else 403.
    for (const type of META_CHANNEL_TYPES) {
      app.get(
        `/webhooks/${type}/:channelId`,
        {
          config: { public: true },
          schema: { tags: ['webhooks'], params: params.pick({ channelId: true }), querystring: verificationQuery },
        },
        async (request, reply) => {
          const { row } = await intake.channel(type, request.params.channelId);
          const challenge = answerMetaVerification(request.query, metaVerifyTokenOf(row.webhookSecret));
          if (challenge === null) throw fail('ERR_NO_PERMISSION');
          return reply.type('text/plain; charset=utf-8').send(challenge);
        },
      );
    }

    if (meta) {
      app.get(
        '/webhooks/meta',
        { config: { public: true }, schema: { tags: ['webhooks'], querystring: verificationQuery } },
        async (request, reply) => {
          const challenge = answerMetaVerification(request.query, meta.verifyToken);
          if (challenge === null) throw fail('ERR_NO_PERMISSION');
          return reply.type('text/plain; charset=utf-8').send(challenge);
        },
      );
      app.post(
        '/webhooks/meta',
        {
          config: { public: true },
          schema: { tags: ['webhooks'], body: z.unknown(), response: { 200: metaResponse } },
        },
        (request) => meta.router.receive({ headers: request.headers, body: request.body, rawBody: request.rawBody }),
      );
    }

    // The QR gateways post a login's whole history in one webhook (Wuzapi HistorySync, Evolution messages.set) and
    // do not resend it, so their webhooks may be larger than the app's limit. Only for a channel that exists and is
    // the gateway's: that is checked before the body is read, so an unknown address costs no large read.
    for (const gateway of GATEWAY_CHANNEL_TYPES) {
      app.post(
        `/webhooks/${gateway}/:channelId`,
        {
          config: { public: true },
          schema: { ...schema, params: params.pick({ channelId: true }) },
          bodyLimit: GATEWAY_WEBHOOK_MAX_BYTES,
          onRequest: async (request) => {
            const channelId = params.shape.channelId.safeParse((request.params as { channelId?: unknown }).channelId);
            if (!channelId.success) throw fail('ERR_NO_WAPP_FOUND');
            await intake.expect(gateway, channelId.data);
          },
        },
        (request) => receive(gateway, request.params.channelId, request),
      );
    }
  };
}
