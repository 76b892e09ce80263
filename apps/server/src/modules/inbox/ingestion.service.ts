/**
 * Ingestion (ARCHITECTURE §4): the one path for a channel's normalised events. One transaction per event under the
 * channel's tenant: upsert the contact, find-or-create the ticket, insert the message idempotently and enqueue its
 * media download in the same transaction; domain events are published only after commit. The webhook answers the
 * provider after `ingest` resolves, so a crash loses nothing: the provider retries and a replay is a no-op.
 */
import type { MessageDto, TicketDto } from '@conversa/shared';
import type { Database, Tx } from '../../platform/db/client.js';
import type { EventBus } from '../../platform/events/bus.js';
import { systemContext, withTenant, type TenantId } from '../../platform/db/tenancy.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { ChannelCredentials, InboundEvent, InboundParty } from '../channels/index.js';
import { applyInboundContactUpdate, upsertInboundContact, type InboundContactFacts } from '../contacts/index.js';
import {
  applyInboundAck,
  applyInboundDelete,
  applyInboundEdit,
  applyInboundReaction,
  DOWNLOAD_MEDIA_JOB,
  loadMessageDto,
  publishMessage,
  storeInboundMessage,
  ticketRefOf,
  type MediaLinks,
  type MessageChange,
  type MessageRow,
} from '../messages/index.js';
import { findOrCreateActiveTicket, loadTicketDto } from '../tickets/index.js';

export interface IngestionDeps {
  db: Database;
  jobs: JobQueue;
  events: EventBus;
  links: MediaLinks;
}

export interface Ingestion {
  ingest(channel: ChannelCredentials, events: InboundEvent[]): Promise<void>;
}

type MessageEvent = Extract<InboundEvent, { kind: 'message' }>;
type Stored = { message: MessageDto; ticket: TicketDto | null; ticketCreated: boolean };

/** Thrown inside the transaction to roll back a ticket made for a message another transaction stored first. */
class DuplicateMessage extends Error {}

const chatFacts = (party: InboundParty): InboundContactFacts => ({
  id: party.chatId,
  idField: party.idField,
  name: party.name,
  number: party.number,
  isGroup: party.isGroup,
  profilePicUrl: party.profilePicUrl ?? null,
});

function participantFacts(party: InboundParty): InboundContactFacts | null {
  const p = party.isGroup ? party.participant : null;
  return p ? { id: p.id, idField: p.idField, name: p.name, number: p.number, isGroup: false } : null;
}

/** The text a ticket list row shows for a message. */
const preview = (event: MessageEvent): string => event.body || event.media?.name || event.mediaType;

export function createIngestion(deps: IngestionDeps): Ingestion {
  /** Null when nothing is stored: a blocked contact (nothing of theirs is kept), an unusable id, or a replay. */
  async function storeMessage(tx: Tx, channel: ChannelCredentials, event: MessageEvent): Promise<Stored | null> {
    const tenantId = channel.tenantId as TenantId;
    // A replay meets the stored message at the insert below and rolls back (no separate look-up first).
    const chat = await upsertInboundContact(tx, tenantId, chatFacts(event.party));
    if (!chat || chat.blocked) return null;
    const senderFacts = participantFacts(event.party);
    const sender = senderFacts ? await upsertInboundContact(tx, tenantId, senderFacts) : null;
    if (sender?.blocked) return null;
    const { ticket, created } = await findOrCreateActiveTicket(tx, tenantId, {
      contactId: chat.id,
      channelId: channel.id,
      channelType: channel.type,
      isGroup: event.party.isGroup,
      status: 'pending',
      userId: channel.routing.userId,
      queueId: channel.routing.queueId,
      actorUserId: null,
    });
    // Messages written on the phone itself (fromMe echoes) answer the ticket instead of waiting for an answer.
    const row = await storeInboundMessage(
      tx,
      {
        tenantId,
        ticketId: ticket.id,
        contactId: chat.id,
        channelId: channel.id,
        senderContactId: sender?.id ?? null,
        providerMessageId: event.providerMessageId,
        fromMe: event.fromMe,
        body: event.body,
        mediaType: event.mediaType,
        media: event.media,
        isSticker: event.isSticker ?? false,
        meta: event.meta ?? null,
        quotedProviderMessageId: event.quotedProviderMessageId,
        timestamp: event.timestamp,
      },
      preview(event),
    );
    if (!row) throw new DuplicateMessage();
    if (event.media) {
      await deps.jobs.enqueue(DOWNLOAD_MEDIA_JOB, { tenantId, messageId: row.id }, { tx });
    }
    const dto = await loadTicketDto(tx, ticket.id);
    return {
      message: await loadMessageDto(tx, row, deps.links, { tickets: dto ? [ticketRefOf(dto)] : [] }),
      ticket: dto,
      ticketCreated: created,
    };
  }

  async function ingestMessage(channel: ChannelCredentials, event: MessageEvent): Promise<void> {
    let stored: Stored | null;
    try {
      stored = await withTenant(deps.db, systemContext(channel.tenantId), (tx) => storeMessage(tx, channel, event));
    } catch (error) {
      if (error instanceof DuplicateMessage) return;
      throw error;
    }
    if (!stored) return;
    publishMessage(deps.events, channel.tenantId, 'chat:create', stored.message);
    if (stored.ticket) {
      deps.events.publish('tickets.changed', {
        tenantId: channel.tenantId,
        type: stored.ticketCreated ? 'ticket:create' : 'ticket:update',
        ticket: stored.ticket,
        ...(stored.ticketCreated ? { notify: true } : {}),
      });
    }
  }

  /** Runs one change of a stored message and publishes it after commit when something changed. */
  async function change(
    channel: ChannelCredentials,
    type: MessageChange,
    apply: (tx: Tx) => Promise<MessageRow | null>,
  ): Promise<void> {
    const dto = await withTenant(deps.db, systemContext(channel.tenantId), async (tx) => {
      const row = await apply(tx);
      return row && loadMessageDto(tx, row, deps.links);
    });
    if (dto) publishMessage(deps.events, channel.tenantId, type, dto);
  }

  async function updateContact(channel: ChannelCredentials, party: InboundParty): Promise<void> {
    const tenantId = channel.tenantId as TenantId;
    const contact = await withTenant(deps.db, systemContext(tenantId), (tx) =>
      applyInboundContactUpdate(tx, tenantId, chatFacts(party)),
    );
    if (contact) deps.events.publish('contacts.updated', { tenantId, contact });
  }

  async function ingestOne(channel: ChannelCredentials, event: InboundEvent): Promise<void> {
    const at = (timestamp: number) => new Date(timestamp);
    switch (event.kind) {
      case 'message':
        return ingestMessage(channel, event);
      case 'ack':
        return change(channel, 'chat:ack', (tx) => applyInboundAck(tx, channel.id, event.providerMessageId, event.ack));
      case 'edit':
        return change(channel, 'chat:update', (tx) =>
          applyInboundEdit(tx, channel.id, event.providerMessageId, event.body, at(event.timestamp)),
        );
      case 'delete':
        return change(channel, 'chat:delete', (tx) =>
          applyInboundDelete(tx, channel.id, event.providerMessageId, at(event.timestamp)),
        );
      case 'reaction':
        return change(channel, 'chat:update', (tx) =>
          applyInboundReaction(tx, channel.id, event.providerMessageId, event.reaction),
        );
      case 'contact':
        return updateContact(channel, event.party);
      case 'session':
        // Session state (QR codes, connect/disconnect) belongs to the channels module; Telegram never emits it.
        return;
    }
  }

  return {
    async ingest(channel, events) {
      // In order: an edit or ack in the same webhook call refers to a message stored by an earlier event.
      for (const event of events) await ingestOne(channel, event);
    },
  };
}
