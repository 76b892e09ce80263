/**
 * What /messages/{ticketId} shares with the gateway, WhatsApp Cloud API and hub paths (messages.gateway.routes.ts,
 * messages.waba.routes.ts, messages.hub.routes.ts): the routes' dependencies and the send from a request. Apart from
 * messages.routes.ts, which registers those paths, so they do not import it back.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { messageDtoSchema, scheduledMessageDtoSchema, sendMessageSchema } from '@conversa/shared';
import { actor } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import type { MediaStore } from '../../platform/storage/media-store.js';
import type { MessageActions } from './messages.actions.js';
import type { ForwardService } from './messages.forward.js';
import type { SendService } from './messages.send.js';
import { bodyRenderedFor } from './messages.placeholders.js';
import { isQuickSend, parseQuickSend } from './messages.quick-send.js';
import { scheduleDateOf, scheduledSendSchema, type MessageSchedulingPort } from './messages.schedule-port.js';
import type { MessagesService } from './messages.service.js';
import { receiveMediaUpload } from './messages.upload.js';

export interface MessagesRouteDeps {
  service: MessagesService;
  send: SendService;
  actions: MessageActions;
  forward: ForwardService;
  store: MediaStore;
  /** Upload limit (bytes): MEDIA_MAX_BYTES unless configured lower. */
  maxUploadBytes: number;
  /** Sends with a `scheduleDate` become scheduled messages (the schedules module); without it they are refused. */
  scheduling?: MessageSchedulingPort;
}

/** What a send to a ticket answers: the message, or the scheduled message when the body names a `scheduleDate`. */
export const sendAnswerSchema = z.union([messageDtoSchema, scheduledMessageDtoSchema]);

/**
 * An agent's send to a ticket from an HTTP request: JSON (sendMessageSchema) for text, multipart (`medias` + fields)
 * for one file. Shared by POST /messages/{ticketId} and the gateway paths (messages.gateway.routes.ts). With a
 * `scheduleDate` either form is stored as a scheduled message instead (client-contract §5.2; the schedules module's
 * rules, through the scheduling port).
 */
export async function sendFromRequest(
  deps: Pick<MessagesRouteDeps, 'send' | 'store' | 'scheduling'>,
  request: FastifyRequest,
  ticketId: number,
) {
  const ctx = actor(request);
  if (request.isMultipart()) {
    await deps.send.assertWritable(ctx, ticketId);
    const { media, fields } = await receiveMediaUpload(request, deps.store, ctx.tenantId, {
      schedulable: Boolean(deps.scheduling),
    });
    const body = fields.body ?? media.name;
    const scheduleDate = scheduleDateOf(fields.scheduleDate);
    if (scheduleDate && deps.scheduling) {
      const file = { key: media.key, name: media.name, mime: media.mime, size: media.size };
      // The body is the file's name, as the send now stores it.
      const input = { body, scheduleDate, idFront: fields.idFront ?? null };
      return deps.scheduling.scheduleOnTicket(ctx, ticketId, input, file);
    }
    const values = { body, quotedMsgId: null, sendType: null, media };
    return deps.send.sendMessage(ctx, ticketId, { ...values, idFront: fields.idFront ?? null });
  }
  // A body that is no object (false, a number) has no fields: zod refuses it below (400), `in` would throw (500).
  const isObject = typeof request.body === 'object' && request.body !== null;
  const raw = (isObject ? request.body : {}) as Record<string, unknown>;
  const scheduleDate = scheduleDateOf(raw.scheduleDate);
  if (isQuickSend(request.body)) {
    // A schedule stores a text or an upload, not a quick message: refused rather than sent now.
    if (scheduleDate) throw fail('ERR_VALIDATION', 'scheduleDate');
    return deps.send.sendQuickMessage(ctx, ticketId, parseQuickSend(request.body));
  }
  if (scheduleDate && deps.scheduling) {
    const parsed = scheduledSendSchema.safeParse(raw);
    if (!parsed.success) throw fail('ERR_VALIDATION', String(parsed.error.issues[0]?.path[0] ?? 'body'));
    if (!parsed.data.body.trim()) throw fail('ERR_VALIDATION', 'body');
    const input = { body: parsed.data.body, scheduleDate, idFront: parsed.data.idFront ?? null };
    return deps.scheduling.scheduleOnTicket(ctx, ticketId, input);
  }
  // The empty forms of "not scheduled" ('', 'null') read as null.
  const parsed = sendMessageSchema.safeParse(
    'scheduleDate' in raw && !scheduleDate ? { ...raw, scheduleDate: null } : request.body,
  );
  if (!parsed.success) throw fail('ERR_VALIDATION', String(parsed.error.issues[0]?.path[0] ?? 'body'));
  const input = parsed.data;
  if (!input.body.trim()) throw fail('ERR_VALIDATION', 'body');
  const values = {
    body: input.body,
    quotedMsgId: input.quotedMsg,
    idFront: input.idFront ?? null,
    sendType: input.sendType ?? null,
    media: null,
    // Farewells, ratings, protocols and bulk sends name a sendType: only the agent's own text is signed.
    sign: !input.sendType,
  };
  // A farewell, rating or protocol text the client picked from the company's texts: its placeholders are rendered.
  const rendered = input.sendType && RENDERED_SEND_TYPES.has(input.sendType);
  return deps.send.sendMessage(ctx, ticketId, values, rendered ? { prepare: bodyRenderedFor(input.body) } : {});
}

/** Texts clients send from the company's configured ones (client-contract §4.3 resolve flow, §15 protocols). */
const RENDERED_SEND_TYPES = new Set(['farewell', 'evaluation', 'protocol']);
