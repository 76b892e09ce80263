/**
 * /api/messages, /api/forward-messages, /api/searchMessage and the public /api/media/{token} (client-contract §5).
 * Routes parse, authorise and delegate; ticket visibility is decided by the tickets module (findVisibleTicket).
 */
import fastifyMultipart from '@fastify/multipart';
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
  searchMessageQuerySchema,
  searchMessageResponseSchema,
} from '@conversa/shared';
import { actor } from '../../platform/http/auth.js';
import { sendStoredFile } from '../../platform/http/served-files.js';
import { messagesGatewayRoutes } from './messages.gateway.routes.js';
import { messagesHubRoutes } from './messages.hub.routes.js';
import { messagesWabaRoutes } from './messages.waba.routes.js';
import { sendAnswerSchema, sendFromRequest, type MessagesRouteDeps } from './messages.routes.shared.js';

export { sendAnswerSchema, sendFromRequest, type MessagesRouteDeps } from './messages.routes.shared.js';

const tags = ['messages'];
const ticketParamsSchema = z.object({ ticketId: z.coerce.number().int().positive() });
const idParamsSchema = z.object({ id: z.coerce.number().int().positive() });
const tokenParamsSchema = z.object({ token: z.string().min(1).max(500) });

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
