/**
 * The send, reaction and edit paths the reference client uses for the two HTTP gateways (client-contract §5.3):
 * Evolution (`/evo-...`) and Wuzapi (`/meow-...`). They are the generic calls under other names: a send is POST
 * /messages/{ticketId} (JSON or multipart, the same handler), a reaction and an edit go through the messages actions,
 * which check the caller's ticket and message and call the channel's adapter. The channel object the client echoes
 * (`whatsapp`) is never read: the message's own channel is the one used.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageDtoSchema } from '@conversa/shared';
import { actor } from '../../platform/http/auth.js';
import { GATEWAY_CHANNEL_TYPES } from '../channels/index.js';
import type { MessagesRouteDeps } from './messages.routes.shared.js';
import { sendAnswerSchema, sendFromRequest } from './messages.routes.shared.js';

const tags = ['messages'];
const ticketParamsSchema = z.object({ ticketId: z.coerce.number().int().positive() });
const messageRef = z.union([z.coerce.number().int().positive(), z.string().min(1).max(200)]);

/** `{ ticketId, reaction, messageId, whatsapp }`: the path's ticket wins over the body's. */
export const gatewayReactionSchema = z.object({
  ticketId: z.coerce.number().int().positive().optional(),
  messageId: messageRef,
  /** An emoji; empty removes the reaction. */
  reaction: z.string().max(16),
});
/** `{ ticketId, newText, messageId, whatsapp }`. */
export const gatewayEditionSchema = z.object({
  ticketId: z.coerce.number().int().positive().optional(),
  messageId: messageRef,
  newText: z.string().trim().min(1).max(20_000),
});

export function messagesGatewayRoutes(
  deps: Pick<MessagesRouteDeps, 'send' | 'store' | 'actions' | 'scheduling'>,
): FastifyPluginAsyncZod {
  return async (app) => {
    for (const gateway of GATEWAY_CHANNEL_TYPES) {
      app.post(
        `/${gateway}-message/:ticketId`,
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

      app.post(
        `/${gateway}-react/:ticketId`,
        {
          schema: {
            tags,
            params: ticketParamsSchema,
            body: gatewayReactionSchema,
            response: { 200: messageDtoSchema },
          },
        },
        async (request) => {
          const { messageId, reaction } = request.body;
          return deps.actions.reactToMessage(actor(request), messageId, request.params.ticketId, reaction);
        },
      );

      app.post(
        `/${gateway}-edition/:ticketId`,
        {
          schema: { tags, params: ticketParamsSchema, body: gatewayEditionSchema, response: { 200: messageDtoSchema } },
        },
        async (request) => {
          const { messageId, newText } = request.body;
          return deps.actions.editMessage(actor(request), messageId, newText, request.params.ticketId);
        },
      );
    }
  };
}
