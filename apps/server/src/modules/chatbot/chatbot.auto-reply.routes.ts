/** /api/auto-reply* (client-contract §13; decisions §B): the legacy auto-reply, its steps and their actions. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  autoReplyActionDtoSchema,
  autoReplyActionInputSchema,
  autoReplyDtoSchema,
  autoReplyInputSchema,
  autoReplyStepDtoSchema,
  autoReplyStepInputSchema,
  idParam,
  idParamsSchema,
} from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { AutoReplyService } from './chatbot.auto-reply.js';

const tags = ['auto-reply'];
const emptySchema = z.object({});
const autoReplyParamsSchema = z.object({ idAutoReply: idParam });
const stepParamsSchema = z.object({ idAutoReply: idParam, id: idParam });

export function autoReplyRoutes(service: AutoReplyService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/auto-reply',
      { schema: { tags, response: { 200: z.object({ autoReply: z.array(autoReplyDtoSchema) }) } } },
      async (request) => ({ autoReply: await service.listAutoReplies(actor(request)) }),
    );

    app.post(
      '/auto-reply',
      { schema: { tags, body: autoReplyInputSchema, response: { 200: autoReplyDtoSchema } } },
      async (request) => service.createAutoReply(requireProfile(request, 'super'), request.body),
    );

    app.put(
      '/auto-reply/:id',
      { schema: { tags, params: idParamsSchema, body: autoReplyInputSchema, response: { 200: autoReplyDtoSchema } } },
      async (request) => service.updateAutoReply(requireProfile(request, 'super'), request.params.id, request.body),
    );

    app.delete(
      '/auto-reply/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: emptySchema } } },
      async (request) => {
        await service.deleteAutoReply(requireProfile(request, 'super'), request.params.id);
        return {};
      },
    );

    app.post(
      '/auto-reply/:idAutoReply/steps',
      {
        schema: {
          tags,
          params: autoReplyParamsSchema,
          body: autoReplyStepInputSchema,
          response: { 200: autoReplyStepDtoSchema },
        },
      },
      async (request) => service.createStep(requireProfile(request, 'super'), request.params.idAutoReply, request.body),
    );

    app.put(
      '/auto-reply/:idAutoReply/steps/:id',
      {
        schema: {
          tags,
          params: stepParamsSchema,
          body: autoReplyStepInputSchema,
          response: { 200: autoReplyStepDtoSchema },
        },
      },
      async (request) =>
        service.updateStep(
          requireProfile(request, 'super'),
          request.params.idAutoReply,
          request.params.id,
          request.body,
        ),
    );

    app.delete(
      '/auto-reply/:idAutoReply/steps/:id',
      { schema: { tags, params: stepParamsSchema, response: { 200: emptySchema } } },
      async (request) => {
        await service.deleteStep(requireProfile(request, 'super'), request.params.idAutoReply, request.params.id);
        return {};
      },
    );

    app.post(
      '/auto-reply-action',
      { schema: { tags, body: autoReplyActionInputSchema, response: { 200: autoReplyActionDtoSchema } } },
      async (request) => service.createAction(requireProfile(request, 'super'), request.body),
    );

    app.put(
      '/auto-reply-action/:id',
      {
        schema: {
          tags,
          params: idParamsSchema,
          body: autoReplyActionInputSchema,
          response: { 200: autoReplyActionDtoSchema },
        },
      },
      async (request) => service.updateAction(requireProfile(request, 'super'), request.params.id, request.body),
    );

    app.delete(
      '/auto-reply-action/:id',
      { schema: { tags, params: idParamsSchema, response: { 200: emptySchema } } },
      async (request) => {
        await service.deleteAction(requireProfile(request, 'super'), request.params.id);
        return {};
      },
    );
  };
}
