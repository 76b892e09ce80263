/** The ticket calls of client-contract §4.3 (paths as existing clients call them). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  idParam,
  ticketChannelIdSchema,
  ticketChatBotSchema,
  ticketCloseSchema,
  ticketConflictSchema,
  ticketCreateSchema,
  ticketDtoSchema,
  ticketListQuerySchema,
  ticketListResponseSchema,
  ticketLogDtoSchema,
  ticketsChannelSchema,
  closeAllSchema,
  ticketUpdateSchema,
  ticketPanelQuerySchema,
  type TicketConflictBody,
} from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { TicketsBulk } from './tickets.bulk.js';
import type { createTicketCreation } from './tickets.create.js';
import type { createTicketList } from './tickets.list.js';
import type { createTicketPanel } from './tickets.panel.js';
import type { TicketsService } from './tickets.service.js';

const tags = ['tickets'];
const countSchema = z.object({ count: z.number() });

export interface TicketsRouteDeps {
  service: TicketsService;
  bulk: TicketsBulk;
  list: ReturnType<typeof createTicketList>;
  create: ReturnType<typeof createTicketCreation>;
  panel: ReturnType<typeof createTicketPanel>;
}

export function ticketsRoutes({ service, bulk, list, create, panel }: TicketsRouteDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const ticket = { params: idParamsSchema, response: { 200: ticketDtoSchema } };

    app.get(
      '/tickets',
      { schema: { tags, querystring: ticketListQuerySchema, response: { 200: ticketListResponseSchema } } },
      async (request) => list(actor(request), request.query),
    );

    // Clients send the whole ticket as the query string: it is not read (nor validated).
    app.get('/tickets/:id', { schema: { tags, ...ticket } }, async (request) =>
      service.getTicket(actor(request), request.params.id),
    );

    // The ticket panel (admin only): a bare array of list rows of the period.
    app.get(
      '/dash-tickets-queues',
      { schema: { tags, querystring: ticketPanelQuerySchema, response: { 200: z.array(ticketDtoSchema) } } },
      async (request) => panel(requireProfile(request, 'admin'), request.query),
    );

    app.get(
      '/tickets/:ticketId/logs',
      {
        schema: {
          tags,
          params: z.object({ ticketId: idParam }),
          response: { 200: z.array(ticketLogDtoSchema) },
        },
      },
      async (request) => service.listLogs(actor(request), request.params.ticketId),
    );

    app.put('/tickets/:id', { schema: { tags, ...ticket, body: ticketUpdateSchema } }, async (request) =>
      service.updateTicket(actor(request), request.params.id, request.body),
    );

    app.put('/ticketsForce/:id', { schema: { tags, ...ticket, body: ticketCloseSchema.optional() } }, async (request) =>
      service.forceClose(actor(request), request.params.id),
    );

    app.put('/ticketsNull/:id', { schema: { tags, ...ticket, body: ticketCloseSchema.optional() } }, async (request) =>
      service.closeSilently(actor(request), request.params.id),
    );

    app.put('/ticketsChatBot/:id', { schema: { tags, ...ticket, body: ticketChatBotSchema } }, async (request) =>
      service.handToChatBot(actor(request), request.params.id, request.body.chatFlowId),
    );

    app.put('/ticketsChannelId/:id', { schema: { tags, ...ticket, body: ticketChannelIdSchema } }, async (request) =>
      service.moveToChannel(actor(request), request.params.id, request.body.whatsappId),
    );

    app.put(
      '/ticketsChannel',
      {
        schema: {
          tags,
          body: ticketsChannelSchema,
          response: { 200: z.object({ moved: z.number(), closed: z.number() }) },
        },
      },
      async (request) =>
        bulk.moveChannel(requireProfile(request, 'admin'), request.body.whatsappId, request.body.newWhatsappId),
    );

    app.post(
      '/tickets',
      {
        schema: {
          tags,
          body: ticketCreateSchema,
          response: { 200: ticketDtoSchema, 201: ticketDtoSchema, 409: ticketConflictSchema },
        },
      },
      async (request, reply) => {
        const outcome = await create(actor(request), request.body);
        if (outcome.kind === 'hiddenConflict') {
          return reply.code(409).send({ error: 'ERR_OTHER_OPEN_TICKET' } satisfies TicketConflictBody);
        }
        if (outcome.kind === 'conflict') {
          const { ticket } = outcome;
          const body: TicketConflictBody = { error: JSON.stringify(ticket), code: 'ERR_OTHER_OPEN_TICKET', ticket };
          return reply.code(409).send(body);
        }
        return reply.code(outcome.kind === 'created' ? 201 : 200).send(outcome.ticket);
      },
    );

    app.get('/ticketsClear', { schema: { tags, response: { 200: countSchema } } }, async (request) =>
      bulk.clearIntegrations(requireProfile(request, 'admin')),
    );

    // Named "unread" by the clients, it marks the tickets read (client-contract §4.3).
    app.get('/ticketsMarkAllUnread', { schema: { tags, response: { 200: countSchema } } }, async (request) =>
      bulk.markVisibleRead(actor(request)),
    );

    app.put('/ticketsUpdateAllUnreadMessages', { schema: { tags, response: { 200: countSchema } } }, async (request) =>
      bulk.markOwnRead(actor(request)),
    );

    app.post('/pending/resolvePending', { schema: { tags, response: { 200: countSchema } } }, async (request) =>
      bulk.resolvePending(requireProfile(request, 'admin')),
    );

    // The connections screen's "send stuck messages" (client-contract §7.1): the same re-queue as resolvePending.
    app.post('/forceMessage', { schema: { tags, response: { 200: countSchema } } }, async (request) =>
      bulk.resolvePending(requireProfile(request, 'admin')),
    );

    for (const [path, status] of [
      ['/closeAllOpen', 'open'],
      ['/closeAllPending', 'pending'],
    ] as const) {
      app.post(path, { schema: { tags, body: closeAllSchema, response: { 200: countSchema } } }, async (request) =>
        bulk.closeAllOfChannel(requireProfile(request, 'admin'), request.body.whatsappId, status),
      );
    }
  };
}
