/** /api/group-message (client-contract §16): teams for every profile, changes for supervisors and admins. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  teamDtoSchema,
  teamInputSchema,
  teamMemberSchema,
  teamUserInputSchema,
  teamUserParamsSchema,
} from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { TeamsService } from './teams.service.js';

const tags = ['teams'];

export function teamsRoutes(service: TeamsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/group-message', { schema: { tags, response: { 200: z.array(teamDtoSchema) } } }, async (request) =>
      service.listTeams(actor(request)),
    );

    app.post(
      '/group-message',
      { schema: { tags, body: teamInputSchema, response: { 201: teamDtoSchema } } },
      async (request, reply) =>
        reply.code(201).send(await service.createTeam(requireProfile(request, 'super'), request.body)),
    );

    // The static `/group-message/user` routes are declared before `/:id` (find-my-way prefers static segments anyway).
    app.post(
      '/group-message/user',
      { schema: { tags, body: teamUserInputSchema, response: { 200: z.array(teamMemberSchema) } } },
      async (request) => service.addMember(requireProfile(request, 'super'), request.body.groupId, request.body.userId),
    );

    app.delete(
      '/group-message/user/:userId/:groupId',
      { schema: { tags, params: teamUserParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.removeMember(requireProfile(request, 'super'), request.params.groupId, request.params.userId);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/group-message/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: z.array(teamMemberSchema) } } },
      async (request) => service.listMembers(actor(request), request.params.id),
    );

    app.put(
      '/group-message/:id',
      { schema: { tags, params: idParamsSchema, body: teamInputSchema, response: { 200: teamDtoSchema } } },
      async (request) => service.updateTeam(requireProfile(request, 'super'), request.params.id, request.body),
    );

    app.delete(
      '/group-message/:id',
      { schema: { tags, params: idParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.deleteTeam(requireProfile(request, 'super'), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
