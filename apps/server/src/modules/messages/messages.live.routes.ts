/**
 * The calls of a live WhatsApp session (issue 13 "Groups", "History and contacts", POST /noRedis): client-contract
 * §5.1 (`/messages/listParticipants`, `/mentionMessage`, `/mentionAllMessage`, `/ghostMessage`, `/syncOld`,
 * `/syncOldByUser`), §5.3 (`/noRedis`), §6 (`/contacts/sync`, `/groups/sync`, `/contactsNumber/{number}`) and §7.1
 * (`/checkContacts`). Objects clients echo (a ticket, a channel) are never trusted: only their id is read, and the
 * row is loaded again under the caller's visibility.
 *
 * Permissions: what works on one ticket (participants, mentions, fast send) is an agent's, under the tickets'
 * visibility policy; `/contactsNumber` too (the new-ticket and contact dialogs agents use check a number). Group and
 * phone-book sync, history import and checking every contact act on the whole tenant from the connections and
 * contacts administration screens: admins only.
 */
import fastifyMultipart from '@fastify/multipart';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  contactDtoSchema,
  looseBoolean,
  MEDIA_ALLOWED_MIME_PREFIXES,
  messageDtoSchema,
  sendMessageSchema,
  tenantEvent,
} from '@conversa/shared';
import { withTenant } from '../../platform/db/tenancy.js';
import { actor, requireProfile, type AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { FileTypeRejectedError, receiveSingleFile } from '../../platform/http/multipart.js';
import { rooms } from '../../platform/realtime/server.js';
import { newMediaKey, type MediaStore } from '../../platform/storage/media-store.js';
import { defineJob } from '../../platform/jobs/queue.js';
import type { Platform } from '../../platform/platform.js';
import { registerSessionJobHandler, type LiveOps } from '../channels/index.js';
import { findVisibleTicket } from '../tickets/index.js';
import { createHistoryImport, type HistoryImport, type HistoryTiming } from './messages.live-history.js';
import { createLiveMessaging, MENTION_SEND_JOB, type LiveMessaging } from './messages.live.js';
import type { PipelineDeps } from './messages.pipeline.js';
import type { SendService } from './messages.send.js';
import { mediaTypeFor } from './messages.upload.js';

const tags = ['messages'];

/** Our ticket id: a number, digits, or the ticket object clients echo (only its id is read). */
const ticketIdRef = z
  .union([
    z.number().int().positive(),
    z.string().regex(/^\d{1,15}$/),
    z.object({ id: z.coerce.number().int().positive() }).loose(),
  ])
  .transform((v) => (typeof v === 'object' ? v.id : Number(v)));

const optionalId = z.union([z.coerce.number().int().positive(), z.literal(''), z.null()]).optional();

export const listParticipantsSchema = z.object({
  /** The group's number (as the contract sends it), or our ticket (id or object). */
  ticket: z.union([
    z
      .number()
      .int()
      .positive()
      .transform((id) => ({ id })),
    z
      .object({ id: z.coerce.number().int().positive() })
      .loose()
      .transform((t) => ({ id: t.id })),
    z
      .string()
      .trim()
      .regex(/^[\d-]{5,40}(@g\.us)?$/)
      .transform((groupNumber) => ({ groupNumber })),
  ]),
  whatsappId: optionalId,
});

const mentionBody = z.string().trim().min(1).max(20_000);
export const mentionMessageSchema = z.object({
  body: mentionBody,
  ticket: ticketIdRef,
  participants: z
    .array(z.union([z.string().max(60), z.number().int().positive()]))
    .min(1)
    .max(1_000),
});
export const mentionAllSchema = z.object({ body: mentionBody, ticket: ticketIdRef });

/** A positive whole number (digits accepted too); 0, negatives, fractions and text are refused. */
const limitSchema = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+$/)
      .transform(Number),
  ])
  .pipe(z.number().int().min(1).max(100_000));
export const syncOldSchema = z.object({ whatsappId: z.coerce.number().int().positive(), limit: limitSchema });
export const syncOldByUserSchema = syncOldSchema.extend({
  contactId: z.string().regex(/^(\d{5,20}@c\.us|[\d-]{5,40}@g\.us)$/),
});

const participantsResponse = z.object({
  participants: z.array(
    z.object({
      id: z.string(),
      number: z.string(),
      name: z.string().nullable(),
      isAdmin: z.boolean(),
      userId: z.number().nullable(),
    }),
  ),
});
const syncResponse = z.object({ message: z.string(), total: z.number(), created: z.number(), renamed: z.number() });
const checkResponse = z.object({
  message: z.string(),
  checked: z.number(),
  valid: z.number(),
  invalid: z.number(),
  failed: z.number(),
});

/** JSON `/noRedis` (client-contract §5.3): the §5.2 message in `message`, the ticket echoed in `ticket`. */
export const noRedisJsonSchema = z.object({
  whatsappId: optionalId,
  ticket: ticketIdRef,
  message: z.object({}).loose(),
  quotedMsg: z.unknown().optional(),
});

/** Multipart `/noRedis`: the file in `medias`, `ticket` as a JSON string. */
const noRedisFieldsSchema = z.object({
  ticket: z.string().max(100_000),
  whatsappId: z.string().max(20).optional(),
  body: z.string().max(20_000).optional(),
  idFront: z.string().min(1).max(100).optional(),
  isSticker: looseBoolean.optional(),
});

const allowedMime = (mime: string): boolean =>
  MEDIA_ALLOWED_MIME_PREFIXES.some((prefix) => mime.toLowerCase().startsWith(prefix));
const cleanName = (name: string): string => path.basename(name.replaceAll('\\', '/')).slice(0, 255) || 'file';

function parseTicketField(text: string): number {
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {
    // digits sent as text
  }
  const parsed = ticketIdRef.safeParse(value);
  if (!parsed.success) throw fail('ERR_VALIDATION', 'ticket');
  return parsed.data;
}

/** The channel named by the client must be the ticket's own (a fast send never moves a ticket to another number). */
async function assertTicketChannel(db: PipelineDeps['db'], ctx: AuthedContext, ticketId: number, whatsappId: unknown) {
  await withTenant(db, ctx, async (tx) => {
    const ticket = await findVisibleTicket(tx, ctx, ticketId);
    if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
    const id = whatsappId === undefined || whatsappId === '' || whatsappId === null ? null : Number(whatsappId);
    if (id !== null && id !== ticket.channelId) throw fail('ERR_VALIDATION', 'whatsappId');
  });
}

export interface LiveRoutesDeps {
  platform: Platform;
  pipeline: PipelineDeps;
  send: SendService;
  store: MediaStore;
  maxUploadBytes: number;
  ops: () => LiveOps;
  historyTiming?: Partial<HistoryTiming>;
}

/** Builds the live-session calls: registers the mention send job on the session queues and the import progress. */
export function createLiveRoutes(deps: LiveRoutesDeps) {
  const { platform, pipeline } = deps;
  const live = createLiveMessaging({ pipeline, ops: deps.ops });
  const history = createHistoryImport({
    db: pipeline.db,
    events: pipeline.events,
    ops: deps.ops,
    ...(deps.historyTiming ? { timing: deps.historyTiming } : {}),
  });
  registerSessionJobHandler(platform, MENTION_SEND_JOB.name, (data) =>
    live.runMentionSend(MENTION_SEND_JOB.schema.parse(data)),
  );
  // A gateway's mention sends run from the shared queue, on any node with workers.
  const mentionJob = defineJob({ ...MENTION_SEND_JOB, handler: (payload) => live.runMentionSend(payload) });
  platform.events.subscribe('messages.import_progress', ({ tenantId, progress }) => {
    platform.realtime.publish(rooms.tenant(tenantId), tenantEvent(tenantId, 'importMessages'), progress);
  });

  async function noRedisMultipart(request: FastifyRequest, ctx: AuthedContext) {
    const { saved, fields } = await receiveSingleFile(request, {
      fileField: 'medias',
      fields: noRedisFieldsSchema,
      fallbackField: 'ticket',
      async save(part) {
        if (!allowedMime(part.mimetype)) {
          part.file.resume();
          throw new FileTypeRejectedError('medias');
        }
        const name = cleanName(part.filename);
        const key = newMediaKey(ctx.tenantId, name);
        const { size } = await deps.store.put(key, part.file, part.mimetype);
        return { key, name, mime: part.mimetype, size };
      },
      discard: (file) => deps.store.delete(file.key),
    });
    let ticketId: number;
    try {
      ticketId = parseTicketField(fields.ticket);
      await assertTicketChannel(pipeline.db, ctx, ticketId, fields.whatsappId);
    } catch (error) {
      await deps.store.delete(saved.key);
      throw error;
    }
    const isSticker = fields.isSticker ?? false;
    const name = fields.body ? cleanName(fields.body) : saved.name;
    const media = { ...saved, name, mediaType: mediaTypeFor(saved.mime, name, isSticker), isSticker };
    // sendMessage removes the stored file itself when it refuses or the idFront was used already.
    return deps.send.sendMessage(ctx, ticketId, {
      body: name,
      quotedMsgId: null,
      idFront: fields.idFront ?? null,
      sendType: null,
      media,
    });
  }

  const plugin: FastifyPluginAsyncZod = async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: deps.maxUploadBytes, files: 1, fields: 24, fieldSize: 64 * 1024, parts: 26 },
    });

    app.post(
      '/messages/listParticipants',
      { schema: { tags, body: listParticipantsSchema, response: { 200: participantsResponse } } },
      async (request) => {
        const { ticket, whatsappId } = request.body;
        const ref =
          'id' in ticket ? ticket : { groupNumber: ticket.groupNumber, channelId: whatsappId ? whatsappId : null };
        return live.listParticipants(actor(request), ref);
      },
    );

    app.post(
      '/messages/mentionMessage',
      { schema: { tags, body: mentionMessageSchema, response: { 200: messageDtoSchema } } },
      async (request) =>
        live.sendMention(actor(request), request.body.ticket, {
          body: request.body.body,
          mode: 'list',
          participants: request.body.participants,
        }),
    );

    app.post(
      '/messages/mentionAllMessage',
      { schema: { tags, body: mentionAllSchema, response: { 200: messageDtoSchema } } },
      async (request) =>
        live.sendMention(actor(request), request.body.ticket, { body: request.body.body, mode: 'all' }),
    );

    app.post(
      '/messages/ghostMessage',
      { schema: { tags, body: mentionAllSchema, response: { 200: messageDtoSchema } } },
      async (request) =>
        live.sendMention(actor(request), request.body.ticket, { body: request.body.body, mode: 'ghost' }),
    );

    app.post(
      '/messages/syncOld',
      { schema: { tags, body: syncOldSchema, response: { 200: z.object({ requested: z.number() }) } } },
      async (request) => history.syncOld(requireProfile(request, 'admin'), request.body),
    );

    app.post(
      '/messages/syncOldByUser',
      { schema: { tags, body: syncOldByUserSchema, response: { 200: z.object({ requested: z.number() }) } } },
      async (request) => history.syncOld(requireProfile(request, 'admin'), request.body),
    );

    app.post('/groups/sync', { schema: { tags: ['contacts'], response: { 200: syncResponse } } }, async (request) =>
      live.syncGroups(requireProfile(request, 'admin')),
    );

    app.post('/contacts/sync', { schema: { tags: ['contacts'], response: { 200: syncResponse } } }, async (request) =>
      live.syncContacts(requireProfile(request, 'admin')),
    );

    app.post('/checkContacts', { schema: { tags: ['contacts'], response: { 200: checkResponse } } }, async (request) =>
      live.checkContacts(requireProfile(request, 'admin')),
    );

    app.get(
      '/contactsNumber/:number',
      {
        schema: {
          tags: ['contacts'],
          params: z.object({ number: z.string().regex(/^\d{8,15}$/) }),
          response: { 200: contactDtoSchema },
        },
      },
      async (request) => live.contactByNumber(actor(request), request.params.number),
    );

    // The fast send: the same stored message and events as POST /messages/{ticketId}, for the echoed ticket's id.
    app.post(
      '/noRedis',
      {
        schema: {
          tags,
          consumes: ['application/json', 'multipart/form-data'],
          response: { 200: messageDtoSchema },
        },
      },
      async (request) => {
        const ctx = actor(request);
        if (request.isMultipart()) return noRedisMultipart(request, ctx);
        const parsed = noRedisJsonSchema.safeParse(request.body ?? {});
        if (!parsed.success) throw fail('ERR_VALIDATION', String(parsed.error.issues[0]?.path[0] ?? 'body'));
        const { ticket: ticketId, whatsappId, message, quotedMsg } = parsed.data;
        const input = sendMessageSchema.safeParse({
          ...message,
          quotedMsg: message.quotedMsg ?? quotedMsg ?? null,
        });
        if (!input.success) throw fail('ERR_VALIDATION', `message.${String(input.error.issues[0]?.path[0] ?? 'body')}`);
        if (!input.data.body.trim()) throw fail('ERR_VALIDATION', 'message.body');
        await assertTicketChannel(pipeline.db, ctx, ticketId, whatsappId);
        return deps.send.sendMessage(ctx, ticketId, {
          body: input.data.body,
          quotedMsgId: input.data.quotedMsg,
          idFront: input.data.idFront ?? null,
          sendType: input.data.sendType ?? null,
          media: null,
        });
      },
    );
  };

  const built = { plugin, live, history, jobs: [mentionJob] };
  builtFor.set(platform, built);
  return built;
}

const builtFor = new WeakMap<object, { live: LiveMessaging; history: HistoryImport }>();

/** The live-session services of an app (tests tune the history watcher's timing through it). */
export function liveMessagingOf(platform: object): { live: LiveMessaging; history: HistoryImport } {
  const built = builtFor.get(platform);
  if (!built) throw new Error('the messages module has not built its live-session routes');
  return built;
}
