/** /api/contacts, /api/contact-tags and /api/contact-wallet (client-contract §6). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  contactDtoSchema,
  contactInputSchema,
  contactListQuerySchema,
  contactListResponseSchema,
  contactTagsInputSchema,
  contactUpdateSchema,
  contactWalletsInputSchema,
  idParamsSchema,
} from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { ContactsService } from './contacts.service.js';

const tags = ['contacts'];

export function contactsRoutes(service: ContactsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/contacts',
      { schema: { tags, querystring: contactListQuerySchema, response: { 200: contactListResponseSchema } } },
      async (request) => service.listContacts(actor(request), request.query),
    );

    app.get(
      '/contacts/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: contactDtoSchema } } },
      async (request) => service.getContact(actor(request), request.params.id),
    );

    app.post(
      '/contacts',
      { schema: { tags, body: contactInputSchema, response: { 201: contactDtoSchema } } },
      async (request, reply) => reply.code(201).send(await service.createContact(actor(request), request.body)),
    );

    // Full or partial bodies (client-contract §21.6): keys left out stay as they are.
    app.put(
      '/contacts/:id',
      { schema: { tags, params: idParamsSchema, body: contactUpdateSchema, response: { 200: contactDtoSchema } } },
      async (request) => service.updateContact(actor(request), request.params.id, request.body),
    );

    app.delete(
      '/contacts/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.deleteContact(requireProfile(request, 'super'), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.put(
      '/contact-tags/:id',
      { schema: { tags, params: idParamsSchema, body: contactTagsInputSchema, response: { 200: contactDtoSchema } } },
      async (request) => service.setContactTags(actor(request), request.params.id, request.body.tags),
    );

    app.put(
      '/contact-wallet/:id',
      {
        schema: { tags, params: idParamsSchema, body: contactWalletsInputSchema, response: { 200: contactDtoSchema } },
      },
      async (request) => service.setContactWallets(actor(request), request.params.id, request.body.wallets),
    );
  };
}
