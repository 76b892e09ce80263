/**
 * `POST /api/webhooks/{provider}/{channelId}`: public (providers carry no user token); the channel's own secret is
 * the credential, checked by its adapter. Answers 2xx only once every event of the call is stored.
 *
 * Meta channels (waba, messenger, instagram) also answer Meta's subscription check on the same path (`GET`, verify
 * token derived from the channel's webhook secret), and Meta's app-level URL `GET/POST /api/webhooks/meta` routes
 * each part of a POST to its channel by provider id (providers/meta/meta.webhook-routing.ts).
 */
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, fail } from '../../platform/http/errors.js';
import { z } from 'zod';
import { META_CHANNEL_TYPES } from '@conversa/shared';
import type { BodySignature } from './channels.adapter.js';
import type { WebhookIntake } from './channels.intake.js';
import { BodyTooLargeError, bodyStream, readSignedBody } from './channels.webhooks.spool.js';
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

/** How large a QR gateway's webhook may be (a login's history in one call), once it is authenticated. */
export const GATEWAY_WEBHOOK_MAX_BYTES = 32 * 1024 * 1024;
/**
 * What a request may hold in memory before it is authenticated (the app's limit for every other route): a gateway
 * whose credential covers the body (Wuzapi's HMAC) keeps the rest of a larger body in a temporary file until the
 * signature matched (channels.webhooks.spool.ts).
 */
export const UNAUTHENTICATED_BODY_BYTES = 1024 * 1024;

/**
 * The suffix Evolution appends to the webhook URL with "webhook by events" on: the event's name in kebab case
 * (`messages.upsert` posts to `<url>/messages-upsert`).
 */
const evolutionEventSuffix = z
  .string()
  .max(60)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);

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

    // Meta's verification GET of a channel's own URL: the challenge echoed as plain text, else 403. An unknown id, or
    // another type's channel, answers exactly as a wrong verify token (the same 403, a token still computed): the
    // public URL tells nobody which channel ids exist.
    const unknownChannelSecret = randomBytes(32).toString('base64url');
    for (const type of META_CHANNEL_TYPES) {
      app.get(
        `/webhooks/${type}/:channelId`,
        {
          config: { public: true },
          schema: { tags: ['webhooks'], params: params.pick({ channelId: true }), querystring: verificationQuery },
        },
        async (request, reply) => {
          const row = await intake.channel(type, request.params.channelId).then(
            (found) => found.row,
            (error: unknown) => {
              if (error instanceof AppError && error.status < 500) return null;
              throw error;
            },
          );
          // Computed for an unknown id too (a secret nobody knows), so both refusals take the same path.
          const expected = metaVerifyTokenOf(row?.webhookSecret ?? unknownChannelSecret);
          const challenge = answerMetaVerification(request.query, expected);
          if (challenge === null || !row) throw fail('ERR_NO_PERMISSION');
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
    // do not resend it, so their webhooks may be larger than the app's limit, but only once authenticated: the
    // channel, its type and the credential the headers carry are checked before a byte of the body is read
    // (Evolution's header secret), or while it streams with at most UNAUTHENTICATED_BODY_BYTES in memory (Wuzapi's
    // HMAC); an unknown id answers exactly as a wrong credential.
    const signatures = new WeakMap<FastifyRequest, BodySignature>();
    const refuse = (reply: FastifyReply) => {
      // The client may still be sending: the connection is closed rather than the rest of the body read.
      void reply.header('connection', 'close');
      return fail('ERR_WEBHOOK_UNAUTHORIZED');
    };
    const gatewayHooks = (gateway: (typeof GATEWAY_CHANNEL_TYPES)[number]) => ({
      onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
        const channelId = params.shape.channelId.safeParse((request.params as { channelId?: unknown }).channelId);
        if (!channelId.success) throw refuse(reply);
        try {
          const signature = await intake.preAuthenticate(gateway, channelId.data, request.headers);
          if (signature) signatures.set(request, signature);
        } catch (error) {
          if (error instanceof AppError && error.code === 'ERR_WEBHOOK_UNAUTHORIZED') throw refuse(reply);
          throw error;
        }
      },
      preParsing: async (request: FastifyRequest, reply: FastifyReply, payload: RequestPayload) => {
        const signature = signatures.get(request);
        if (!signature) return payload;
        signatures.delete(request);
        if (Number(request.headers['content-length']) > GATEWAY_WEBHOOK_MAX_BYTES) {
          void reply.header('connection', 'close');
          throw fail('ERR_PAYLOAD_TOO_LARGE');
        }
        let read;
        try {
          read = await readSignedBody(payload, signature, {
            memoryBytes: UNAUTHENTICATED_BODY_BYTES,
            maxBytes: GATEWAY_WEBHOOK_MAX_BYTES,
          });
        } catch (error) {
          if (!(error instanceof BodyTooLargeError)) throw error;
          void reply.header('connection', 'close');
          throw fail('ERR_PAYLOAD_TOO_LARGE');
        }
        if (!read.body) throw refuse(reply);
        return bodyStream(read.body);
      },
    });
    const gatewayRoute = {
      config: { public: true },
      schema: { ...schema, params: params.pick({ channelId: true }) },
      bodyLimit: GATEWAY_WEBHOOK_MAX_BYTES,
    } as const;
    for (const gateway of GATEWAY_CHANNEL_TYPES) {
      app.post(`/webhooks/${gateway}/:channelId`, { ...gatewayRoute, ...gatewayHooks(gateway) }, (request) =>
        receive(gateway, request.params.channelId, request),
      );
    }
    // Evolution's "webhook by events" URLs (`<url>/messages-upsert`, `<url>/connection-update`, ...): the channel's
    // own webhook, same authentication; the body names its event, so the suffix only has to be well formed.
    app.post(
      '/webhooks/evo/:channelId/:event',
      {
        ...gatewayRoute,
        schema: { ...schema, params: params.pick({ channelId: true }).extend({ event: evolutionEventSuffix }) },
        ...gatewayHooks('evo'),
      },
      (request) => receive('evo', request.params.channelId, request),
    );
  };
}
