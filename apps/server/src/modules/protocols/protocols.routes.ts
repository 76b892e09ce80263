/**
 * /api/ticketProtocols (client-contract §15): the list `{ ticketProtocols, count }`, a ticket's logs, the contract's
 * record (POST after a client-side send) and `POST /ticketProtocols/send`, which sends and records in one step.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  sendTicketProtocolInputSchema,
  ticketLogsParamsSchema,
  ticketProtocolDtoSchema,
  ticketProtocolInputSchema,
  ticketProtocolListQuerySchema,
  ticketProtocolListSchema,
  ticketProtocolPageSchema,
  ticketProtocolUpdateSchema,
} from '@conversa/shared';
import { actor } from '../../platform/http/auth.js';
import type { ProtocolsService } from './protocols.service.js';

const tags = ['protocols'];

export function protocolsRoutes(service: ProtocolsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/ticketProtocols',
      { schema: { tags, querystring: ticketProtocolListQuerySchema, response: { 200: ticketProtocolPageSchema } } },
      async (request) => service.listProtocols(actor(request), request.query),
    );

    app.get(
      '/ticketProtocols/:ticketId/logs',
      { schema: { tags, params: ticketLogsParamsSchema, response: { 200: ticketProtocolListSchema } } },
      async (request) => service.ticketProtocols(actor(request), request.params.ticketId),
    );

    app.post(
      '/ticketProtocols',
      { schema: { tags, body: ticketProtocolInputSchema, response: { 201: ticketProtocolDtoSchema } } },
      async (request, reply) => reply.code(201).send(await service.createProtocol(actor(request), request.body)),
    );

    app.post(
      '/ticketProtocols/send',
      { schema: { tags, body: sendTicketProtocolInputSchema, response: { 201: ticketProtocolDtoSchema } } },
      async (request, reply) => reply.code(201).send(await service.sendProtocol(actor(request), request.body.ticketId)),
    );

    app.put(
      '/ticketProtocols/:id',
      {
        schema: {
          tags,
          params: idParamsSchema,
          body: ticketProtocolUpdateSchema,
          response: { 200: ticketProtocolDtoSchema },
        },
      },
      async (request) => service.updateProtocol(actor(request), request.params.id, request.body.protocol),
    );

    app.delete(
      '/ticketProtocols/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.deleteProtocol(actor(request), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
