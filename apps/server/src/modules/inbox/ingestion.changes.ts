/**
 * Ingestion's events about what is already stored (ingestion.service.ts dispatches them): a message's change (ack,
 * send failure, edit, delete, reaction), a read receipt up to a time, a contact's new name or picture. Each runs in
 * one transaction under the channel's tenant and is published after commit when something changed.
 */
import type { Database, Tx } from '../../platform/db/client.js';
import type { EventBus } from '../../platform/events/bus.js';
import { systemContext, withTenant, type TenantId } from '../../platform/db/tenancy.js';
import type { ChannelCredentials, InboundParty } from '../channels/index.js';
import { applyInboundContactUpdate, findInboundContactId } from '../contacts/index.js';
import {
  applyInboundReadUpTo,
  loadMessageDto,
  publishMessage,
  type MediaLinks,
  type MessageChange,
  type MessageRow,
} from '../messages/index.js';
import { chatFacts } from './ingestion.store.js';

/** What the change steps use of ingestion's deps. */
export interface ChangeDeps {
  db: Database;
  events: EventBus;
  links: MediaLinks;
}

/** Runs one change of a stored message and publishes it after commit when something changed. */
export async function applyChange(
  deps: ChangeDeps,
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

/** A read receipt without a message id: each message it marks read is announced (chat:ack). */
export async function readUpTo(
  deps: ChangeDeps,
  channel: ChannelCredentials,
  party: InboundParty,
  watermark: number,
): Promise<void> {
  const tenantId = channel.tenantId as TenantId;
  const dtos = await withTenant(deps.db, systemContext(tenantId), async (tx) => {
    const contactId = await findInboundContactId(tx, tenantId, chatFacts(party));
    if (contactId === null) return [];
    const rows = await applyInboundReadUpTo(tx, channel.id, contactId, watermark);
    return Promise.all(rows.map((row) => loadMessageDto(tx, row, deps.links)));
  });
  for (const dto of dtos) publishMessage(deps.events, tenantId, 'chat:ack', dto);
}

export async function updateContact(deps: ChangeDeps, channel: ChannelCredentials, party: InboundParty): Promise<void> {
  const tenantId = channel.tenantId as TenantId;
  const contact = await withTenant(deps.db, systemContext(tenantId), (tx) =>
    applyInboundContactUpdate(tx, tenantId, chatFacts(party)),
  );
  if (contact) deps.events.publish('contacts.updated', { tenantId, contact });
}
