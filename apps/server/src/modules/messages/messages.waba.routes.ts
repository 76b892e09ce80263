/**
 * The WhatsApp Cloud API sends of client-contract §5.3 / §7.2 (`/wabameta*`). Each is an agent's send on a ticket
 * like `POST /messages/{ticketId}` (whoever may write on the ticket; stored pending, `messages.send` enqueued, the
 * adapter builds Graph's JSON from the stored `outbound_payload`), on a waba ticket only (else 400
 * ERR_CHANNEL_TYPE_UNSUPPORTED). The ticket is re-read by `ticketId`: the `tokenApi`, `from` and channel objects the
 * reference client echoes are ignored. Free-form sends are refused outside the customer-service window
 * (messages.window.ts); templates never are. They live here, not beside the waba adapter, because they are the
 * messages module's send path (the channels module cannot import it).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  wabaButtonSchema,
  wabaFileUrlSchema,
  wabaListSchema,
  wabaReactionResponseSchema,
  wabaReactionSchema,
  wabaSendResponseSchema,
  wabaStickerUrlSchema,
  wabaTemplateSendSchema,
  wabaTextSchema,
  type MessageMediaType,
  type OutboundPayload,
} from '@conversa/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { actor } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { bodyParameterCount, findApprovedTemplate, renderTemplatePreview, sentParameters } from '../channels/index.js';
import type { MessagesRouteDeps } from './messages.routes.shared.js';
import { payloadSend, type SendRequirements } from './messages.send.js';
import { receiveMediaUpload } from './messages.upload.js';

const tags = ['messages'];
const WABA: SendRequirements = { channelType: 'waba' };
const multipartQuery = z.object({ ticketId: z.coerce.number().int().positive().optional() }).loose();

type UrlMediaType = Extract<OutboundPayload, { kind: 'media-url' }>['mediaType'];

/** A file by URL without a declared type: guessed from its extension (Meta needs the message type). */
export function urlMediaType(url: string): UrlMediaType {
  const ext = new URL(url).pathname.split('.').pop()?.toLowerCase() ?? '';
  if (['jpg', 'jpeg', 'png'].includes(ext)) return 'image';
  if (ext === 'webp') return 'sticker';
  if (['mp4', '3gp'].includes(ext)) return 'video';
  if (['mp3', 'ogg', 'opus', 'aac', 'amr', 'm4a'].includes(ext)) return 'audio';
  return 'application';
}

/** The readable text stored for an interactive send: header, body, footer and the labels the customer can tap. */
function interactiveText(parts: { header: string | null; body: string; footer: string | null }, labels: string[]) {
  return [parts.header && `*${parts.header}*`, parts.body, parts.footer && `_${parts.footer}_`, labels.join(' ')]
    .filter(Boolean)
    .join('\n\n');
}

export function messagesWabaRoutes(deps: Pick<MessagesRouteDeps, 'send' | 'store' | 'actions'>): FastifyPluginAsyncZod {
  /** A multipart file send (`medias` + `ticketId`), checked before the file is read when the query names the ticket. */
  async function sendUpload(request: FastifyRequest, sticker: boolean) {
    const ctx = actor(request);
    const early = multipartQuery.parse(request.query ?? {}).ticketId;
    if (early) await deps.send.assertWritable(ctx, early, WABA);
    const { media, fields } = await receiveMediaUpload(request, deps.store, ctx.tenantId);
    const ticketId = early ?? fields.ticketId;
    if (!ticketId) {
      await deps.store.delete(media.key);
      throw fail('ERR_VALIDATION', 'ticketId');
    }
    const stored =
      sticker && media.mime.startsWith('image/') ? { ...media, mediaType: 'sticker' as const, isSticker: true } : media;
    // sendMessage re-checks the ticket (and the window) in its transaction and deletes the file when it refuses.
    // A sticker has no text (WhatsApp shows no caption on one; a file name would follow it as a message).
    const body = sticker ? '' : (fields.body ?? stored.name);
    const values = { body, quotedMsgId: null, sendType: null, media: stored };
    return { data: await deps.send.sendMessage(ctx, ticketId, { ...values, idFront: fields.idFront ?? null }, WABA) };
  }

  return async (app) => {
    app.post(
      '/wabametaText',
      { schema: { tags, body: wabaTextSchema, response: { 200: wabaSendResponseSchema } } },
      async (request) => {
        const { ticketId, body, idFront, quotedMsg } = request.body;
        const values = { body, quotedMsgId: quotedMsg, idFront: idFront ?? null, sendType: null, media: null };
        // The agent's own text, signed like POST /messages (a body already signed by the client is left alone).
        return { data: await deps.send.sendMessage(actor(request), ticketId, { ...values, sign: true }, WABA) };
      },
    );

    app.post(
      '/wabametaFile',
      { schema: { tags, consumes: ['multipart/form-data'], response: { 200: wabaSendResponseSchema } } },
      async (request) => sendUpload(request, false),
    );

    app.post(
      '/wabametaFileUrl',
      { schema: { tags, body: wabaFileUrlSchema, response: { 200: wabaSendResponseSchema } } },
      async (request) => {
        const { ticketId, url, caption, filename, idFront } = request.body;
        const mediaType = request.body.mediaType ?? urlMediaType(url);
        const payload: OutboundPayload = { kind: 'media-url', url, mediaType, caption, filename };
        const values = payloadSend(caption ?? filename ?? url, mediaType as MessageMediaType, payload, { idFront });
        return { data: await deps.send.sendMessage(actor(request), ticketId, values, WABA) };
      },
    );

    // Multipart like /wabametaFile (the file is a sticker), or JSON with the sticker's URL.
    app.post(
      '/wabametaSticker',
      {
        schema: {
          tags,
          consumes: ['application/json', 'multipart/form-data'],
          response: { 200: wabaSendResponseSchema },
        },
      },
      async (request) => {
        if (request.isMultipart()) return sendUpload(request, true);
        const parsed = wabaStickerUrlSchema.safeParse(request.body ?? {});
        if (!parsed.success) throw fail('ERR_VALIDATION', String(parsed.error.issues[0]?.path[0] ?? 'url'));
        const { ticketId, url, idFront } = parsed.data;
        const payload: OutboundPayload = { kind: 'media-url', url, mediaType: 'sticker' };
        const values = payloadSend('sticker', 'sticker', payload, { idFront });
        return { data: await deps.send.sendMessage(actor(request), ticketId, values, WABA) };
      },
    );

    app.post(
      '/wabametaButton',
      { schema: { tags, body: wabaButtonSchema, response: { 200: wabaSendResponseSchema } } },
      async (request) => {
        const { ticketId, body, header, footer, idFront } = request.body;
        // Meta answers the tapped button's id: a missing one gets its position, unique within the message.
        const buttons = request.body.buttons.map((b, i) => ({ id: b.id || `btn-${i + 1}`, title: b.title }));
        if (new Set(buttons.map((b) => b.id)).size !== buttons.length) throw fail('ERR_VALIDATION', 'buttons');
        const payload: OutboundPayload = { kind: 'buttons', body, header, footer, buttons };
        const labels = buttons.map((b) => `[${b.title}]`);
        const values = payloadSend(interactiveText({ header, body, footer }, labels), 'button', payload, { idFront });
        return { data: await deps.send.sendMessage(actor(request), ticketId, values, WABA) };
      },
    );

    app.post(
      '/wabametaList',
      { schema: { tags, body: wabaListSchema, response: { 200: wabaSendResponseSchema } } },
      async (request) => {
        const { ticketId, body, button, header, footer, idFront } = request.body;
        let n = 0;
        const sections = request.body.sections.map((section) => ({
          title: section.title ?? '',
          rows: section.rows.map((row) => ({
            id: row.id || `row-${++n}`,
            title: row.title,
            description: row.description,
          })),
        }));
        const ids = sections.flatMap((s) => s.rows.map((r) => r.id));
        if (new Set(ids).size !== ids.length) throw fail('ERR_VALIDATION', 'sections');
        const payload: OutboundPayload = { kind: 'list', body, header, footer, button, sections };
        const values = payloadSend(interactiveText({ header, body, footer }, [`[${button}]`]), 'list', payload, {
          idFront,
        });
        return { data: await deps.send.sendMessage(actor(request), ticketId, values, WABA) };
      },
    );

    app.post(
      '/wabametaReaction',
      { schema: { tags, body: wabaReactionSchema, response: { 200: wabaReactionResponseSchema } } },
      async (request) => {
        const ctx = actor(request);
        const { ticketId, messageId, emojiReaction } = request.body;
        // A reaction is no free-form message: Meta takes it outside the window too.
        await deps.send.assertWritable(ctx, ticketId, { ...WABA, outsideWindow: true });
        await deps.actions.reactToMessage(ctx, messageId, ticketId, emojiReaction);
        return { ok: true as const };
      },
    );

    app.post(
      '/wabametaTemplateComponents',
      { schema: { tags, body: wabaTemplateSendSchema, response: { 200: wabaSendResponseSchema } } },
      async (request) => {
        const { ticketId, templateName, language, components, idFront, quotedMsg } = request.body;
        const payload: OutboundPayload = { kind: 'template', name: templateName, language, components };
        const values = payloadSend('', 'templates', payload, {
          idFront,
          quotedMsgId: quotedMsg,
          sendType: 'templates',
        });
        const data = await deps.send.sendMessage(actor(request), ticketId, values, {
          ...WABA,
          outsideWindow: true,
          // The template must be cached APPROVED for the ticket's channel, with as many body parameters as `{{n}}`.
          async prepare(tx, ticket) {
            const template =
              ticket.channelId === null
                ? null
                : await findApprovedTemplate(tx, ticket.channelId, templateName, language);
            if (!template) throw fail('ERR_NO_TEMPLATE_FOUND');
            if (sentParameters(components, 'BODY').length !== bodyParameterCount(template.components)) {
              throw fail('ERR_VALIDATION', 'components');
            }
            return { body: renderTemplatePreview(template.components, components) };
          },
        });
        return { data };
      },
    );
  };
}
