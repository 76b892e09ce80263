/**
 * /api/messages, /api/forward-messages, /api/searchMessage and the public /api/media/{token} (client-contract §5).
 * Routes parse, authorise and delegate; ticket visibility is decided by the tickets module (findVisibleTicket).
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deleteMessageSchema,
  editMessageSchema,
  forwardMessagesSchema,
  messageDtoSchema,
  messageListQuerySchema,
  messageListResponseSchema,
  patchMessageSchema,
  reactionMessageSchema,
  scheduledMessageDtoSchema,
  searchMessageQuerySchema,
  searchMessageResponseSchema,
  sendMessageSchema,
} from '@conversa/shared';
import { actor } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { sendStoredFile } from '../../platform/http/served-files.js';
import type { MediaStore } from '../../platform/storage/media-store.js';
import type { MessageActions } from './messages.actions.js';
import type { ForwardService } from './messages.forward.js';
import type { SendService } from './messages.send.js';
import { messagesGatewayRoutes } from './messages.gateway.routes.js';
import { messagesHubRoutes } from './messages.hub.routes.js';
import { messagesWabaRoutes } from './messages.waba.routes.js';
import { bodyRenderedFor } from './messages.placeholders.js';
import { isQuickSend, parseQuickSend } from './messages.quick-send.js';
import { scheduleDateOf, scheduledSendSchema, type MessageSchedulingPort } from './messages.schedule-port.js';
import type { MessagesService } from './messages.service.js';
import { receiveMediaUpload } from './messages.upload.js';

const tags = ['messages'];
const ticketParamsSchema = z.object({ ticketId: z.coerce.number().int().positive() });
const idParamsSchema = z.object({ id: z.coerce.number().int().positive() });
const tokenParamsSchema = z.object({ token: z.string().min(1).max(500) });

export interface MessagesRouteDeps {
  service: MessagesService;
  send: SendService;
  actions: MessageActions;
  forward: ForwardService;
  store: MediaStore;
  /** Upload limit (bytes): MEDIA_MAX_BYTES unless configured lower. */
  maxUploadBytes: number;
  /** Sends with a `scheduleDate` become scheduled messages (the schedules module); without it they are refused. */
  scheduling?: MessageSchedulingPort;
}

/** What a send to a ticket answers: the message, or the scheduled message when the body names a `scheduleDate`. */
export const sendAnswerSchema = z.union([messageDtoSchema, scheduledMessageDtoSchema]);

/**
 * An agent's send to a ticket from an HTTP request: JSON (sendMessageSchema) for text, multipart (`medias` + fields)
 * for one file. Shared by POST /messages/{ticketId} and the gateway paths (messages.gateway.routes.ts). With a
 * `scheduleDate` either form is stored as a scheduled message instead (client-contract §5.2; the schedules module's
 * rules, through the scheduling port).
 */
export async function sendFromRequest(
  deps: Pick<MessagesRouteDeps, 'send' | 'store' | 'scheduling'>,
  request: FastifyRequest,
  ticketId: number,
) {
  const ctx = actor(request);
  if (request.isMultipart()) {
    await deps.send.assertWritable(ctx, ticketId);
    const { media, fields } = await receiveMediaUpload(request, deps.store, ctx.tenantId, {
      schedulable: Boolean(deps.scheduling),
    });
    const body = fields.body ?? media.name;
    const scheduleDate = scheduleDateOf(fields.scheduleDate);
    if (scheduleDate && deps.scheduling) {
      const file = { key: media.key, name: media.name, mime: media.mime, size: media.size };
      // The body is the file's name, as the send now stores it.
      const input = { body, scheduleDate, idFront: fields.idFront ?? null };
      return deps.scheduling.scheduleOnTicket(ctx, ticketId, input, file);
    }
    const values = { body, quotedMsgId: null, sendType: null, media };
    return deps.send.sendMessage(ctx, ticketId, { ...values, idFront: fields.idFront ?? null });
  }
  // A body that is no object (false, a number) has no fields: zod refuses it below (400), `in` would throw (500).
  const isObject = typeof request.body === 'object' && request.body !== null;
  const raw = (isObject ? request.body : {}) as Record<string, unknown>;
  const scheduleDate = scheduleDateOf(raw.scheduleDate);
  if (isQuickSend(request.body)) {
    // A schedule stores a text or an upload, not a quick message: refused rather than sent now.
    if (scheduleDate) throw fail('ERR_VALIDATION', 'scheduleDate');
    return deps.send.sendQuickMessage(ctx, ticketId, parseQuickSend(request.body));
  }
  if (scheduleDate && deps.scheduling) {
    const parsed = scheduledSendSchema.safeParse(raw);
    if (!parsed.success) throw fail('ERR_VALIDATION', String(parsed.error.issues[0]?.path[0] ?? 'body'));
    if (!parsed.data.body.trim()) throw fail('ERR_VALIDATION', 'body');
    const input = { body: parsed.data.body, scheduleDate, idFront: parsed.data.idFront ?? null };
    return deps.scheduling.scheduleOnTicket(ctx, ticketId, input);
  }
  // The empty forms of "not scheduled" ('', 'null') read as null.
  const parsed = sendMessageSchema.safeParse(
    'scheduleDate' in raw && !scheduleDate ? { ...raw, scheduleDate: null } : request.body,
  );
  if (!parsed.success) throw fail('ERR_VALIDATION', String(parsed.error.issues[0]?.path[0] ?? 'body'));
  const input = parsed.data;
  if (!input.body.trim()) throw fail('ERR_VALIDATION', 'body');
  const values = {
    body: input.body,
    quotedMsgId: input.quotedMsg,
    idFront: input.idFront ?? null,
    sendType: input.sendType ?? null,
    media: null,
    // Farewells, ratings, protocols and bulk sends name a sendType: only the agent's own text is signed.
    sign: !input.sendType,
  };
  // A farewell, rating or protocol text the client picked from the company's texts: its placeholders are rendered.
  const rendered = input.sendType && RENDERED_SEND_TYPES.has(input.sendType);
  return deps.send.sendMessage(ctx, ticketId, values, rendered ? { prepare: bodyRenderedFor(input.body) } : {});
}

/** Texts clients send from the company's configured ones (client-contract §4.3 resolve flow, §15 protocols). */
const RENDERED_SEND_TYPES = new Set(['farewell', 'evaluation', 'protocol']);

export function messagesRoutes(deps: MessagesRouteDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: deps.maxUploadBytes, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 },
    });
    // The gateway paths (/evo-..., /meow-...) share this context's multipart parser.
    await app.register(messagesGatewayRoutes(deps));
    // So do the WhatsApp Cloud API sends (/wabameta*, multipart for files and stickers).
    await app.register(messagesWabaRoutes(deps));
    // And the NotificaMe hub's (/hub-message/{ticketId} takes multipart like /messages).
    await app.register(messagesHubRoutes(deps));

    app.get(
      '/messages/:ticketId',
      {
        schema: {
          tags,
          params: ticketParamsSchema,
          querystring: messageListQuerySchema,
          response: { 200: messageListResponseSchema },
        },
      },
      async (request) => deps.service.listMessages(actor(request), request.params.ticketId, request.query.pageNumber),
    );

    // JSON (sendMessageSchema) for text, multipart (`medias` + fields) for one file: the body is parsed here.
    app.post(
      '/messages/:ticketId',
      {
        schema: {
          tags,
          params: ticketParamsSchema,
          consumes: ['application/json', 'multipart/form-data'],
          response: { 200: sendAnswerSchema },
        },
      },
      async (request) => sendFromRequest(deps, request, request.params.ticketId),
    );

    app.delete(
      '/messages',
      { schema: { tags, body: deleteMessageSchema, response: { 200: messageDtoSchema } } },
      async (request) => deps.actions.deleteMessage(actor(request), request.body.id),
    );

    app.patch(
      '/messages/:id',
      { schema: { tags, params: idParamsSchema, body: patchMessageSchema, response: { 200: messageDtoSchema } } },
      async (request) => deps.actions.editMessage(actor(request), request.params.id, request.body.body),
    );

    app.post(
      '/messages/editMessage',
      { schema: { tags, body: editMessageSchema, response: { 200: messageDtoSchema } } },
      async (request) => {
        const { messageId, ticketId, newBody } = request.body;
        return deps.actions.editMessage(actor(request), messageId, newBody, ticketId);
      },
    );

    app.post(
      '/messages/reactionMessage',
      { schema: { tags, body: reactionMessageSchema, response: { 200: messageDtoSchema } } },
      async (request) => {
        const { messageId, ticketId, reaction } = request.body;
        return deps.actions.reactToMessage(actor(request), messageId, ticketId, reaction);
      },
    );

    app.post(
      '/forward-messages',
      {
        schema: {
          tags,
          body: forwardMessagesSchema,
          response: { 200: z.object({ messages: z.array(messageDtoSchema) }) },
        },
      },
      async (request) => ({
        messages: await deps.forward.forwardMessages(actor(request), request.body.messages, request.body.contact),
      }),
    );

    app.get(
      '/searchMessage',
      { schema: { tags, querystring: searchMessageQuerySchema, response: { 200: searchMessageResponseSchema } } },
      async (request) =>
        deps.service.searchMessages(actor(request), request.query.searchTerm, request.query.pageNumber),
    );

    // Public: <img>/<audio> tags cannot send a bearer token; the signed, expiring link is the credential.
    app.get(
      '/media/:token',
      { config: { public: true }, schema: { tags, params: tokenParamsSchema } },
      async (request, reply) => {
        const media = await deps.service.openMedia(request.params.token);
        // Only images, audio and video are shown, typed; everything else downloads (served-files.ts).
        return sendStoredFile(reply, { ...media, cacheControl: 'private, max-age=3600' });
      },
    );
  };
}
