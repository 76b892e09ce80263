/**
 * What the tickets module asks of the message pipeline (TicketMessagingPort), implemented here so tickets never
 * touch message rows: queue a system message (the farewell, the rating texts, the chatbot's steps, the absence
 * message; placeholders rendered, messages.placeholders.ts) or a file by address inside the caller's transaction, and re-send the tenant's stuck messages. All of them
 * only enqueue: the send job talks to the provider after the caller's commit, so a rollback sends nothing.
 */
import type { MessageMediaType } from '@conversa/shared';
import { systemContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { findVisibleTicket, type SystemMedia, type TicketMessagingPort } from '../tickets/index.js';
import { SEND_MESSAGE_JOB } from './messages.jobs.js';
import { renderForTicket } from './messages.placeholders.js';
import { findStuckSends, updateMessage } from './messages.repository.js';
import { queueOutboundMessage, type OutboundValues } from './messages.send.js';

/** How a file sent by address is stored (the message's type) and described to providers that fetch it themselves. */
const URL_MEDIA: Record<
  SystemMedia['type'],
  { stored: MessageMediaType; payload: 'image' | 'video' | 'audio' | 'application' }
> = {
  image: { stored: 'image', payload: 'image' },
  video: { stored: 'video', payload: 'video' },
  audio: { stored: 'audio', payload: 'audio' },
  document: { stored: 'application', payload: 'application' },
};

export function createTicketMessaging(deps: { jobs: JobQueue }): TicketMessagingPort {
  return {
    async queueSystemMessage(tx, ctx, ticketId, body, sendType, options = {}) {
      // The tickets service already authorised the caller: read the ticket as the system would.
      const ticket = await findVisibleTicket(tx, systemContext(ctx.tenantId), ticketId);
      if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
      // Farewells, closing and auto-close messages, rating texts, chat flow steps: placeholders rendered here, once.
      const text = await renderForTicket(tx, ticket, body);
      const values = { body: text, quotedMsgId: null, idFront: null, sendType, media: null };
      // The caller commits (and publishes its ticket event); the send job announces the message with chat:create.
      await queueOutboundMessage(tx, deps.jobs, ctx, ticket, values, { announce: true, ...options });
    },

    async queueSystemMedia(tx, ctx, ticketId, media, sendType, options = {}) {
      const ticket = await findVisibleTicket(tx, systemContext(ctx.tenantId), ticketId);
      if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
      const kind = URL_MEDIA[media.type];
      const caption = media.caption?.trim() ? await renderForTicket(tx, ticket, media.caption.trim()) : null;
      if (media.stored) {
        const name = media.name || media.stored.key.split('/').pop() || 'file';
        const file = { key: media.stored.key, name, mime: media.stored.mime, size: 0, isSticker: false };
        const values = {
          body: caption ?? '',
          quotedMsgId: null,
          idFront: null,
          sendType,
          media: { ...file, mediaType: kind.stored },
        };
        await queueOutboundMessage(tx, deps.jobs, ctx, ticket, values, { announce: true, ...options });
        return;
      }
      // A file by URL (messages.url-media.ts): official channels pass the address on, the others fetch the bytes.
      const values: OutboundValues = {
        body: caption ?? media.name ?? '',
        quotedMsgId: null,
        idFront: null,
        sendType,
        media: null,
        mediaType: kind.stored,
        payload: { kind: 'media-url', url: media.url, mediaType: kind.payload, caption, filename: media.name ?? null },
      };
      await queueOutboundMessage(tx, deps.jobs, ctx, ticket, values, { announce: true, ...options });
    },

    async requeueStuckSends(tx, ctx) {
      const stuck = await findStuckSends(tx);
      for (const message of stuck) {
        await updateMessage(tx, message.id, { isDelayed: false, sendAttempts: 0, sendError: null });
        await deps.jobs.enqueue(SEND_MESSAGE_JOB, { tenantId: ctx.tenantId, messageId: message.id }, { tx });
      }
      return stuck.length;
    },
  };
}
