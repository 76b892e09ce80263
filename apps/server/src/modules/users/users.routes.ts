/** /api/users, /api/usersIsOnline and /api/users/chat-privado (client-contract §3, §16). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  chatPrivadoUserSchema,
  createUserInputSchema,
  idParamsSchema,
  updateUserInputSchema,
  userConfigsSchema,
  userDtoSchema,
  userListQuerySchema,
  userListResponseSchema,
  userOnlineInputSchema,
} from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import { toChatUser, toUserDto } from './users.dto.js';
import type { UsersService } from './users.service.js';

const chatPrivadoQuerySchema = userListQuerySchema.extend({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional(),
});
const chatPrivadoResponseSchema = z.object({ users: z.array(chatPrivadoUserSchema) });
const tags = ['users'];

export function usersRoutes(service: UsersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/users',
      { schema: { tags, querystring: userListQuerySchema, response: { 200: userListResponseSchema } } },
      async (request) => {
        const { rows, count, hasMore } = await service.listUsers(requireProfile(request, 'super'), request.query);
        return { users: rows.map(toUserDto), count, hasMore };
      },
    );

    app.post(
      '/users',
      { schema: { tags, body: createUserInputSchema, response: { 201: userDtoSchema } } },
      async (request, reply) => {
        const row = await service.createUser(requireProfile(request, 'admin'), request.body);
        return reply.code(201).send(toUserDto(row));
      },
    );

    app.get(
      '/users/chat-privado',
      { schema: { tags, querystring: chatPrivadoQuerySchema, response: { 200: chatPrivadoResponseSchema } } },
      async (request) => {
        const rows = await service.listChatUsers(actor(request), request.query);
        return { users: rows.map(toChatUser) };
      },
    );

    app.get(
      '/users/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: userDtoSchema } } },
      async (request) => toUserDto(await service.getUser(actor(request), request.params.id)),
    );

    app.put(
      '/users/:id',
      { schema: { tags, params: idParamsSchema, body: updateUserInputSchema, response: { 200: userDtoSchema } } },
      async (request) => toUserDto(await service.updateUser(actor(request), request.params.id, request.body)),
    );

    app.delete(
      '/users/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.deleteUser(requireProfile(request, 'admin'), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.put(
      '/usersIsOnline/:id',
      { schema: { tags, params: idParamsSchema, body: userOnlineInputSchema, response: { 200: userDtoSchema } } },
      async (request) => {
        const row = await service.setPresence(actor(request), request.params.id, request.body.isOnline);
        return toUserDto(row);
      },
    );

    app.put(
      '/users/:id/configs',
      { schema: { tags, params: idParamsSchema, body: userConfigsSchema, response: { 200: userConfigsSchema } } },
      async (request) => service.updateConfigs(actor(request), request.params.id, request.body),
    );
  };
}
