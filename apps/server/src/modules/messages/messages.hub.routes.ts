/**
 * The NotificaMe hub sends of client-contract §5.3 / §7.2: `POST /hub-message/{ticketId}` is `POST /messages/{ticketId}`
 * (same bodies, JSON or multipart, same answer) for tickets on hub channels only, and `POST /send-template/` stores a
 * WhatsApp template send on a `hub` ticket (payload `template`, sent by the hub adapter). The ticket is re-read by id:
 * `whatsappId`, `recipientNumber`, `userId` and the other fields the reference client echoes are ignored. They live in
 * the messages module because they are its send path (the channels module cannot import it).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HUB_CHANNEL_TYPES, hubSendTemplateInputSchema, messageDtoSchema } from '@conversa/shared';
import { actor } from '../../platform/http/auth.js';
import type { MessagesRouteDeps } from './messages.routes.shared.js';
import { sendAnswerSchema, sendFromRequest } from './messages.routes.shared.js';
import { payloadSend, type SendRequirements } from './messages.send.js';

const tags = ['messages'];
const ticketParamsSchema = z.object({ ticketId: z.coerce.number().int().positive() });

/** The text parameters of a template's components, in order (what the customer sees filled in). */
function parameterTexts(components: unknown[]): string[] {
  const texts: string[] = [];
  for (const component of components) {
    const parameters = (component as { parameters?: unknown } | null)?.parameters;
    if (!Array.isArray(parameters)) continue;
    for (const parameter of parameters) {
      const text = (parameter as { text?: unknown } | null)?.text;
      if (typeof text === 'string' && text.trim()) texts.push(text.trim());
    }
  }
  return texts;
}

/** The stored text of a template send: the client's readable body, else the template's name and its parameters. */
export function hubTemplateText(name: string, components: unknown[], body: string | null | undefined): string {
  const given = body?.trim();
  // The reference client may send the components as a JSON string in `body`: not readable, so rendered instead.
  if (given && !/^[[{]/.test(given)) return given;
  const parameters = parameterTexts(components);
  return parameters.length ? `${name}: ${parameters.join(', ')}` : name;
}

export function messagesHubRoutes(
  deps: Pick<MessagesRouteDeps, 'send' | 'store' | 'scheduling'>,
): FastifyPluginAsyncZod {
  const HUB: SendRequirements = { channelTypes: HUB_CHANNEL_TYPES };
  return async (app) => {
    app.post(
      '/hub-message/:ticketId',
      {
        schema: {
          tags,
          params: ticketParamsSchema,
          consumes: ['application/json', 'multipart/form-data'],
          response: { 200: sendAnswerSchema },
        },
      },
      async (request) => {
        // Checked before a file is read: a ticket of another type (or another tenant's) stores nothing.
        await deps.send.assertWritable(actor(request), request.params.ticketId, HUB);
        return sendFromRequest(deps, request, request.params.ticketId);
      },
    );

    app.post(
      '/send-template',
      { schema: { tags, body: hubSendTemplateInputSchema, response: { 200: z.object({ data: messageDtoSchema }) } } },
      async (request) => {
        const { ticketId, templateName, language, components, body, idFront } = request.body;
        const payload = { kind: 'template' as const, name: templateName, language, components };
        const values = payloadSend(hubTemplateText(templateName, components, body), 'templates', payload, {
          idFront,
          sendType: 'templates',
        });
        // Templates exist only on WhatsApp (hub type `hub`) and are allowed outside the customer-service window.
        const needs: SendRequirements = { channelType: 'hub', outsideWindow: true };
        return { data: await deps.send.sendMessage(actor(request), ticketId, values, needs) };
      },
    );
  };
}
