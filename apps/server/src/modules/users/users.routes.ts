/** /api/users, /api/usersIsOnline and /api/users/chat-privado (client-contract §3, §16). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  chatPrivadoUserSchema,
  createUserInputSchema,
  idParamsSchema,
  updateUserInputSchema,
  updateUserResponseSchema,
  userConfigsSchema,
  userDtoSchema,
  userListQuerySchema,
  userListResponseSchema,
  transferUserListResponseSchema,
  userOnlineInputSchema,
} from '@conversa/shared';
import { actor, profileRank, requireProfile, type AuthedContext } from '../../platform/http/auth.js';
import { toChatUser, toTransferUser, toUserDto } from './users.dto.js';
import type { UserRow } from './users.repository.js';
import type { UserSessionsPort, UsersService } from './users.service.js';

const chatPrivadoQuerySchema = userListQuerySchema.extend({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional(),
});
const chatPrivadoResponseSchema = z.object({ users: z.array(chatPrivadoUserSchema) });
const tags = ['users'];
const mayListFullUsers = (profile: AuthedContext['profile']) => profileRank(profile) >= profileRank('super');

export function usersRoutes(service: UsersService, sessions: UserSessionsPort): FastifyPluginAsyncZod {
  const withQueues = async (ctx: AuthedContext, row: UserRow) => {
    const { queues, channels } = await service.relationsOf(ctx, [row.id]);
    return toUserDto(row, queues.get(row.id), channels.get(row.id));
  };

  return async (app) => {
    // Supervisors and up get the full users; agents what a transfer needs (client-contract §3: their transfer list
    // and service screen read this list), never e-mails. The full shape comes first: a union keeps the first match.
    app.get(
      '/users',
      {
        schema: {
          tags,
          querystring: userListQuerySchema,
          response: { 200: z.union([userListResponseSchema, transferUserListResponseSchema]) },
        },
      },
      async (request) => {
        const ctx = actor(request);
        const { rows, count, hasMore } = await service.listUsers(ctx, request.query);
        const { queues, channels } = await service.relationsOf(
          ctx,
          rows.map((r) => r.id),
        );
        if (!mayListFullUsers(ctx.profile)) {
          return { users: rows.map((row) => toTransferUser(row, queues.get(row.id))), count, hasMore };
        }
        return {
          users: rows.map((row) => toUserDto(row, queues.get(row.id), channels.get(row.id))),
          count,
          hasMore,
        };
      },
    );

    app.post(
      '/users',
      { schema: { tags, body: createUserInputSchema, response: { 201: userDtoSchema } } },
      async (request, reply) => {
        const ctx = requireProfile(request, 'admin');
        const row = await service.createUser(ctx, request.body);
        return reply.code(201).send(await withQueues(ctx, row));
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
      async (request) => withQueues(actor(request), await service.getUser(actor(request), request.params.id)),
    );

    // One's own password change answers the renewed session (token here, refresh cookie set): the tab stays in.
    app.put(
      '/users/:id',
      {
        schema: {
          tags,
          params: idParamsSchema,
          body: updateUserInputSchema,
          response: { 200: updateUserResponseSchema },
        },
      },
      async (request, reply) => {
        const ctx = actor(request);
        const { user, session } = await service.updateUser(ctx, request.params.id, request.body);
        if (!session) return withQueues(ctx, user);
        sessions.setRefreshCookie(reply, session.refreshToken);
        return { ...(await withQueues(ctx, user)), token: session.token };
      },
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
        return withQueues(actor(request), row);
      },
    );

    app.put(
      '/users/:id/configs',
      { schema: { tags, params: idParamsSchema, body: userConfigsSchema, response: { 200: userConfigsSchema } } },
      async (request) => service.updateConfigs(actor(request), request.params.id, request.body),
    );
  };
}
