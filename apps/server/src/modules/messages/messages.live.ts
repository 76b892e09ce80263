/**
 * What a live WhatsApp session (Baileys, whatsapp-web.js, or one a gateway holds: Evolution, Wuzapi) offers over HTTP
 * besides sends (client-contract §5.1, §6, §7.1): a group's participants, messages that mention members, group and
 * phone-book sync, number checks. Every call goes through the channels module's live operations
 * (sessions/session-live-ops.ts), which run it here, on the session's owner, or on the gateway. Provider calls never
 * run inside a database transaction.
 *
 * Mention messages are agents' sends: the same pending row, ticket touch, chat:create / ticket:update events and ack
 * updates as POST /messages/{ticketId}; only the job differs (`messages.send-mention`, in the session's queue, with
 * the mentioned numbers in its payload; in the session's queue for a stateful session, the shared queue for a gateway),
 * because a plain send carries no mentions. Its attempts follow the send
 * job's rules (counted before the provider call; a message with a provider id is never sent again).
 */
import { and, desc, eq, gt, inArray, isNotNull, max, ne } from 'drizzle-orm';
import { z } from 'zod';
import type { ContactDto, ErrorCode, MessageEventDto } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import { systemContext, withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import type { JobSpec } from '../../platform/jobs/queue.js';
import {
  CHECK_BATCH,
  enqueueChannelJob,
  findSession,
  LIVE_CHANNEL_TYPES,
  LiveOpUnsupportedError,
  loadChannelCredentials,
  ProviderError,
  SessionNotRunningError,
  STATEFUL_CHANNEL_TYPES,
  type ChannelRow,
  type LiveOps,
} from '../channels/index.js';
import { channels } from '../channels/channels.tables.js';
import {
  loadContactDtos,
  upsertInboundContact,
  upsertInboundContacts,
  type ContactRow,
  type InboundContactFacts,
} from '../contacts/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import { findVisibleTicket, loadTicketDto, touchTicketOnOutbound, type TicketRow } from '../tickets/index.js';
import { tickets } from '../tickets/tickets.tables.js';
import { loadMessageDto } from './messages.dto.js';
import { publishMessage, type PipelineDeps } from './messages.pipeline.js';
import { findMessage, insertMessageOnce, updateMessage } from './messages.repository.js';
import { recipientFor, recordSendOutcome, SEND_MAX_ATTEMPTS } from './messages.send-job.js';

const STATEFUL: readonly string[] = STATEFUL_CHANNEL_TYPES;
export const isStatefulType = (type: string): boolean => STATEFUL.includes(type);
const LIVE: readonly string[] = LIVE_CHANNEL_TYPES;
/** A channel with a WhatsApp session's live operations: stateful sessions and gateways. */
export const isLiveType = (type: string): boolean => LIVE.includes(type);

/** Contacts written per transaction by a sync. */
export const SYNC_BATCH = 500;

/** A session's failure as the catalogue code the caller sees; `refused` for the provider's own refusal. */
export function sessionFailure(error: unknown, refused: ErrorCode): unknown {
  if (error instanceof LiveOpUnsupportedError) return fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
  if (error instanceof SessionNotRunningError) return fail('ERR_WAPP_NOT_INITIALIZED');
  if (error instanceof ProviderError) return fail(refused);
  return error;
}

async function onSession<T>(work: () => Promise<T>, refused: ErrorCode = 'ERR_CHANNEL_PROVIDER'): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw sessionFailure(error, refused);
  }
}

/** A member's number from what clients send: digits, or a WhatsApp id (`<digits>@c.us`, `@s.whatsapp.net`). */
export function participantNumber(value: string | number): string | null {
  const text = String(value).trim();
  const match = /^\+?(\d{5,20})(?:@(?:c\.us|s\.whatsapp\.net))?$/.exec(text);
  return match ? match[1]! : null;
}

/** The body of a visible mention: every mentioned number not yet tagged gets its `@<number>` tag. */
export function withMentionTags(body: string, numbers: readonly string[]): string {
  const missing = numbers.filter((n) => !new RegExp(`@${n}(?!\\d)`).test(body));
  if (missing.length === 0) return body;
  return `${body.trimEnd()}\n${missing.map((n) => `@${n}`).join(' ')}`;
}

export const MENTION_SEND_JOB: JobSpec<MentionSendPayload> = {
  name: 'messages.send-mention',
  schema: z.object({
    tenantId: z.number().int().positive(),
    messageId: z.number().int().positive(),
    mentions: z.array(z.string().regex(/^\d{5,20}$/)).max(2_000),
  }),
  retryLimit: SEND_MAX_ATTEMPTS - 1,
  retryDelaySeconds: 5,
  expireInSeconds: 120,
};
export interface MentionSendPayload {
  tenantId: number;
  messageId: number;
  mentions: string[];
}

export type MentionMode = 'list' | 'all' | 'ghost';

export interface Participant {
  id: string;
  number: string;
  name: string | null;
  isAdmin: boolean;
  /** The tenant's contact with this number, when there is one (the contract's `userId`). */
  userId: number | null;
}

interface GroupTicket {
  ticket: TicketRow;
  contact: ContactRow;
  channel: ChannelRow;
}

/** How listParticipants names its ticket: our id (a number or an echoed object), or the group's number. */
export type TicketRef = { id: number } | { groupNumber: string; channelId: number | null };

/** The tenant's channels with live operations that are connected now, the default one first. */
async function connectedChannels(tx: Tx, ctx: TenantContext): Promise<ChannelRow[]> {
  const rows = await tx
    .select()
    .from(channels)
    .where(and(eq(channels.tenantId, ctx.tenantId), eq(channels.status, 'CONNECTED')))
    .orderBy(desc(channels.isDefault), channels.id);
  return rows.filter((row) => isLiveType(row.type));
}

/** The highest contact id now: rows above it after an upsert were made by it. */
async function maxContactId(tx: Tx, ctx: TenantContext): Promise<number> {
  const [row] = await tx
    .select({ id: max(contacts.id) })
    .from(contacts)
    .where(eq(contacts.tenantId, ctx.tenantId));
  return Number(row?.id ?? 0);
}

/**
 * A name the tenant never gave: empty, or the number ingestion puts there when the provider gave no name (a group's
 * id with or without `@g.us`).
 */
const isPlaceholderName = (row: ContactRow): boolean =>
  !row.name.trim() || row.name === row.number || (row.isGroup && `${row.name}@g.us` === row.number);

export function createLiveMessaging(deps: { pipeline: PipelineDeps; ops: () => LiveOps }) {
  const { pipeline } = deps;
  const db = pipeline.db;

  /** The ticket, visible to the caller, open or pending, of a group, on a channel with live operations. */
  async function groupTicket(tx: Tx, ctx: AuthedContext, ref: TicketRef): Promise<GroupTicket> {
    let ticket: TicketRow | null = null;
    if ('id' in ref) {
      ticket = await findVisibleTicket(tx, ctx, ref.id);
    } else {
      // The group's number as clients send it (with or without `@g.us`): its newest visible ticket on that channel.
      const bare = ref.groupNumber.replace(/@g\.us$/, '');
      const candidates = await tx
        .select({ id: contacts.id })
        .from(contacts)
        .where(and(eq(contacts.tenantId, ctx.tenantId), inArray(contacts.number, [bare, `${bare}@g.us`])));
      const rows = candidates.length
        ? await tx
            .select({ id: tickets.id, channelId: tickets.channelId })
            .from(tickets)
            .where(
              and(
                eq(tickets.tenantId, ctx.tenantId),
                inArray(
                  tickets.contactId,
                  candidates.map((c) => c.id),
                ),
              ),
            )
            .orderBy(desc(tickets.id))
            .limit(50)
        : [];
      let closed: TicketRow | null = null;
      for (const row of rows) {
        if (ref.channelId !== null && row.channelId !== ref.channelId) continue;
        const visible = await findVisibleTicket(tx, ctx, row.id);
        if (!visible) continue;
        if (visible.status !== 'closed') {
          ticket = visible;
          break;
        }
        closed ??= visible;
      }
      ticket ??= closed;
    }
    if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
    if (ticket.status === 'closed') throw fail('ERR_VALIDATION', 'ticket');
    const [contact] = await tx.select().from(contacts).where(eq(contacts.id, ticket.contactId)).limit(1);
    if (!contact?.isGroup || !contact.number) throw fail('ERR_VALIDATION', 'ticket');
    const [channel] = ticket.channelId
      ? await tx.select().from(channels).where(eq(channels.id, ticket.channelId)).limit(1)
      : [];
    if (!channel || !isLiveType(channel.type)) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
    return { ticket, contact, channel };
  }

  async function participantsOf(channelId: number, groupId: string) {
    return onSession(() => deps.ops().run({ op: 'groupParticipants', channelId, groupId }));
  }

  /** The numbers' contacts of the tenant (people, not groups): number -> contact id. */
  async function contactIdsByNumber(tx: Tx, ctx: TenantContext, numbers: string[]): Promise<Map<string, number>> {
    if (numbers.length === 0) return new Map();
    const rows = await tx
      .select({ id: contacts.id, number: contacts.number })
      .from(contacts)
      .where(and(eq(contacts.tenantId, ctx.tenantId), eq(contacts.isGroup, false), inArray(contacts.number, numbers)));
    return new Map(rows.map((r) => [r.number!, r.id]));
  }

  /** The agent's send of a mention message; stored and announced exactly like POST /messages/{ticketId}. */
  async function sendMention(
    ctx: AuthedContext,
    ticketId: number,
    input: { body: string; mode: MentionMode; participants?: (string | number)[] },
  ): Promise<MessageEventDto> {
    const target = await withTenant(db, ctx, async (tx) => {
      const ticket = await findVisibleTicket(tx, ctx, ticketId);
      if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
      if (ticket.status === 'closed') throw fail('ERR_TICKET_CLOSED');
      const found = await groupTicket(tx, ctx, { id: ticket.id });
      const stateful = isStatefulType(found.channel.type);
      if (stateful && !(await findSession(tx, ctx.tenantId, found.channel.id))) throw fail('ERR_WAPP_NOT_INITIALIZED');
      return found;
    });
    const channelId = target.channel.id;
    const capabilities = await onSession(() => deps.ops().run({ op: 'capabilities', channelId }));
    if (!capabilities.sendMention) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
    let mentions: string[];
    if (input.mode === 'list') {
      const numbers = (input.participants ?? []).map(participantNumber);
      if (numbers.length === 0 || numbers.some((n) => n === null)) throw fail('ERR_VALIDATION', 'participants');
      mentions = [...new Set(numbers as string[])];
    } else {
      if (!capabilities.groupParticipants) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
      mentions = [...new Set((await participantsOf(channelId, target.contact.number!)).map((p) => p.number))];
    }
    // A ghost mention notifies everyone without a visible tag; the others show the tags they notify.
    const body = input.mode === 'ghost' ? input.body : withMentionTags(input.body, mentions);

    const stored = await withTenant(db, ctx, async (tx) => {
      // Re-read: the ticket may have been closed or taken away while the session answered.
      const ticket = await findVisibleTicket(tx, ctx, ticketId);
      if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
      if (ticket.status === 'closed') throw fail('ERR_TICKET_CLOSED');
      const row = await insertMessageOnce(tx, {
        tenantId: ctx.tenantId,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        channelId: ticket.channelId,
        userId: ctx.userId,
        idFront: null,
        fromMe: true,
        read: true,
        body,
        mediaType: 'chat',
        mediaKey: null,
        mediaName: null,
        mediaMime: null,
        mediaSize: null,
        mediaStatus: 'none',
        isSticker: false,
        ack: 0,
        status: 'pending',
        sendType: null,
        quotedMsgId: null,
      });
      if (!row) throw fail('ERR_CREATING_MESSAGE');
      await touchTicketOnOutbound(tx, ticket.id, body, new Date());
      const payload = { tenantId: ctx.tenantId, messageId: row.id, mentions };
      await enqueueChannelJob(tx, pipeline.jobs, ctx.tenantId, channelId, MENTION_SEND_JOB, payload);
      const dto = await loadTicketDto(tx, ticket.id);
      return { message: await loadMessageDto(tx, row, pipeline.links, dto), ticket: dto };
    });
    publishMessage(pipeline.events, ctx.tenantId, 'chat:create', stored.message);
    if (stored.ticket) {
      pipeline.events.publish('tickets.changed', {
        tenantId: ctx.tenantId,
        type: 'ticket:update',
        ticket: stored.ticket,
      });
    }
    return stored.message;
  }

  /**
   * The worker's side of `messages.send-mention`: from the session's queue next to the socket (stateful sessions), or
   * from the shared queue on any node (gateways).
   */
  async function runMentionSend(payload: MentionSendPayload): Promise<void> {
    const ctx = systemContext(payload.tenantId);
    const prepared = await withTenant(db, ctx, async (tx) => {
      const found = await findMessage(tx, payload.messageId);
      if (!found || !found.fromMe || found.messageId || found.isDeleted || found.isDelayed) return null;
      const message = (await updateMessage(tx, found.id, { sendAttempts: found.sendAttempts + 1 }))!;
      const channel = message.channelId ? await loadChannelCredentials(tx, message.channelId) : null;
      const [contact] = await tx.select().from(contacts).where(eq(contacts.id, message.contactId)).limit(1);
      return { message, channel, to: channel && contact ? recipientFor(channel.type, contact) : null };
    });
    if (!prepared) return;
    const { channel, to } = prepared;
    await recordSendOutcome(pipeline, payload, prepared.message.sendAttempts, async () => {
      if (!channel || !to) throw new ProviderError('the message has no group to go to', true);
      return deps.ops().local({
        op: 'sendMention',
        channelId: channel.id,
        to,
        body: prepared.message.body,
        mentions: payload.mentions,
      });
    });
  }

  /** Writes what a phone knows (its groups or its contacts) in batches; names only where the tenant gave none. */
  async function upsertKnown(ctx: TenantContext, facts: InboundContactFacts[]) {
    let created = 0;
    let renamed = 0;
    for (let i = 0; i < facts.length; i += SYNC_BATCH) {
      const batch = facts.slice(i, i + SYNC_BATCH);
      const counts = await withTenant(db, ctx, async (tx) => {
        const before = await maxContactId(tx, ctx);
        const rows = await upsertInboundContacts(tx, ctx.tenantId, batch);
        let made = 0;
        let names = 0;
        const seen = new Set<number>();
        for (const [index, row] of rows.entries()) {
          if (!row || seen.has(row.id)) continue;
          seen.add(row.id);
          if (row.id > before) {
            made += 1;
            continue;
          }
          const name = batch[index]!.name.trim();
          if (name && name !== row.name && isPlaceholderName(row)) {
            await tx.update(contacts).set({ name }).where(eq(contacts.id, row.id));
            names += 1;
          }
        }
        return { made, names };
      });
      created += counts.made;
      renamed += counts.names;
    }
    return { created, renamed };
  }

  /** Runs `work` for each connected live channel; channels whose session lacks the operation are skipped. */
  async function perChannel<T>(ctx: TenantContext, work: (channel: ChannelRow) => Promise<T>): Promise<T[]> {
    const rows = await withTenant(db, ctx, (tx) => connectedChannels(tx, ctx));
    if (rows.length === 0) throw fail('ERR_WAPP_NOT_INITIALIZED');
    const results: T[] = [];
    let unsupported = 0;
    for (const row of rows) {
      try {
        results.push(await work(row));
      } catch (error) {
        if (error instanceof LiveOpUnsupportedError) unsupported += 1;
        else throw sessionFailure(error, 'ERR_CHANNEL_PROVIDER');
      }
    }
    if (unsupported === rows.length) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
    return results;
  }

  /** The channel a number check goes through: the default one when it is a connected live channel, else the first. */
  async function checkChannel(ctx: TenantContext): Promise<ChannelRow> {
    return withTenant(db, ctx, async (tx) => {
      const [first] = await connectedChannels(tx, ctx);
      if (first) return first;
      // A connected channel of another kind (Telegram has no numbers): the operation is not one of its.
      const [other] = await tx
        .select({ id: channels.id })
        .from(channels)
        .where(
          and(eq(channels.tenantId, ctx.tenantId), eq(channels.status, 'CONNECTED'), ne(channels.type, 'telegram')),
        )
        .limit(1);
      throw fail(other ? 'ERR_CHANNEL_TYPE_UNSUPPORTED' : 'ERR_WAPP_NOT_INITIALIZED');
    });
  }

  return {
    runMentionSend,
    sendMention,

    async listParticipants(ctx: AuthedContext, ref: TicketRef): Promise<{ participants: Participant[] }> {
      const target = await withTenant(db, ctx, (tx) => groupTicket(tx, ctx, ref));
      const members = await participantsOf(target.channel.id, target.contact.number!);
      const ids = await withTenant(db, ctx, (tx) =>
        contactIdsByNumber(
          tx,
          ctx,
          members.map((m) => m.number),
        ),
      );
      return {
        participants: members.map((m) => ({
          id: `${m.number}@c.us`,
          number: m.number,
          name: m.name,
          isAdmin: m.isAdmin,
          userId: ids.get(m.number) ?? null,
        })),
      };
    },

    /** POST /groups/sync: a group contact per group of every connected session (name = subject, number = id). */
    async syncGroups(ctx: TenantContext) {
      const lists = await perChannel(ctx, (channel) => deps.ops().run({ op: 'listGroups', channelId: channel.id }));
      const byId = new Map(lists.flat().map((g) => [g.id, g]));
      const facts: InboundContactFacts[] = [...byId.values()].map((g) => ({
        id: g.id,
        idField: 'number',
        name: g.subject.trim() || g.id,
        number: null,
        isGroup: true,
      }));
      const counts = await upsertKnown(ctx, facts);
      return { message: `${facts.length} groups synced`, total: facts.length, ...counts };
    },

    /** POST /contacts/sync: the phone's contacts of every connected session. */
    async syncContacts(ctx: TenantContext) {
      const lists = await perChannel(ctx, (channel) => deps.ops().run({ op: 'listContacts', channelId: channel.id }));
      const byNumber = new Map<string, { number: string; name: string | null }>();
      for (const c of lists.flat()) if (!byNumber.get(c.number)?.name) byNumber.set(c.number, c);
      const facts: InboundContactFacts[] = [...byNumber.values()].map((c) => ({
        id: c.number,
        idField: 'number',
        name: c.name?.trim() ?? '',
        number: c.number,
        isGroup: false,
      }));
      const counts = await upsertKnown(ctx, facts);
      return { message: `${facts.length} contacts synced`, total: facts.length, ...counts };
    },

    /** POST /checkContacts: every contact with a number (not groups), in batches, through one connected session. */
    async checkContacts(ctx: TenantContext) {
      const channel = await checkChannel(ctx);
      const counts = { checked: 0, valid: 0, invalid: 0, failed: 0 };
      let after = 0;
      for (;;) {
        const page = await withTenant(db, ctx, (tx) =>
          tx
            .select({ id: contacts.id, number: contacts.number })
            .from(contacts)
            .where(
              and(
                eq(contacts.tenantId, ctx.tenantId),
                eq(contacts.isGroup, false),
                isNotNull(contacts.number),
                gt(contacts.id, after),
              ),
            )
            .orderBy(contacts.id)
            .limit(SYNC_BATCH),
        );
        if (page.length === 0) break;
        after = page[page.length - 1]!.id;
        const numbers = page.map((c) => c.number!).filter((n) => /^\d{5,20}$/.test(n));
        counts.checked += page.length;
        counts.failed += page.length - numbers.length;
        for (let i = 0; i < numbers.length; i += CHECK_BATCH) {
          const batch = numbers.slice(i, i + CHECK_BATCH);
          const results = await onSession(() =>
            deps.ops().run({ op: 'checkNumbers', channelId: channel.id, numbers: batch }),
          );
          for (const r of results) {
            if (r.failed) counts.failed += 1;
            else if (r.check.exists) counts.valid += 1;
            else counts.invalid += 1;
          }
        }
      }
      return {
        message:
          `${counts.checked} contacts checked: ${counts.valid} on WhatsApp, ${counts.invalid} not on WhatsApp, ` +
          `${counts.failed} could not be checked`,
        ...counts,
      };
    },

    /** GET /contactsNumber/{number}: is it on WhatsApp? The contact with the number WhatsApp knows (found or made). */
    async contactByNumber(ctx: TenantContext, number: string): Promise<ContactDto> {
      const channel = await checkChannel(ctx);
      const check = await onSession(
        () => deps.ops().act({ op: 'checkNumber', channelId: channel.id, number }),
        'ERR_WAPP_CHECK_CONTACT',
      );
      const parsed = z.object({ exists: z.boolean(), number: z.string().nullable() }).safeParse(check);
      if (!parsed.success) throw fail('ERR_WAPP_CHECK_CONTACT');
      if (!parsed.data.exists) throw fail('ERR_CONTACTS_NOT_EXISTS_WHATSAPP');
      const known = parsed.data.number?.replace(/\D/g, '') || number;
      const result = await withTenant(db, ctx, async (tx) => {
        const before = await maxContactId(tx, ctx);
        const row = await upsertInboundContact(tx, ctx.tenantId, {
          id: known,
          idField: 'number',
          name: '',
          number: known,
          isGroup: false,
        });
        if (!row) throw fail('ERR_WAPP_INVALID_CONTACT');
        const [dto] = await loadContactDtos(tx, [row]);
        return { dto: dto!, created: row.id > before };
      });
      if (result.created) pipeline.events.publish('contacts.created', { tenantId: ctx.tenantId, contact: result.dto });
      return result.dto;
    },
  };
}

export type LiveMessaging = ReturnType<typeof createLiveMessaging>;
