/**
 * The outbound lane of one channel (campaigns.tables.ts): one tick sends one recipient, then enqueues the next tick
 * the paced delay later. Everything a tick does is one transaction under the lane's row lock: the recipient claimed,
 * its ticket found or created, its message stored with its send job, the lane's next tick enqueued. A crash before the
 * commit leaves the recipient pending and the tick to be retried; after it, the recipient is sent and the next tick
 * is queued. So each recipient is sent once, and one channel never sends two campaign messages at once across nodes.
 *
 * The agents' own sends on the channel are separate jobs, never behind the lane: a campaign adds one message per
 * delay to the channel's send queue, whatever its size.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { CampaignMessageOrder, MessageEventDto, TicketDto } from '@conversa/shared';
import type { Database, Tx } from '../../platform/db/client.js';
import { asTenantId, systemContext, withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { JobQueue, JobSpec } from '../../platform/jobs/queue.js';
import { findTenantChannel } from '../channels/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import { loadMessageDto, mediaTypeFor, publishSent, queueOutboundMessage, type MediaLinks } from '../messages/index.js';
import { findOrCreateActiveTicket, loadTicketDto } from '../tickets/index.js';
import { renderCampaignText } from './campaigns.variables.js';
import { campaignContacts, campaigns, outboundLanes } from './campaigns.tables.js';
import type { CampaignRow } from './campaigns.repository.js';

export interface LaneTickPayload {
  tenantId: number;
  channelId: number;
  seq: number;
}

export interface LaneDeps {
  db: Database;
  queue: JobQueue;
  events: EventBus;
  links: MediaLinks;
  tick: JobSpec<LaneTickPayload>;
  /** The random source of the message choice (tests pin it). */
  random?: () => number;
}

export type TickOutcome = 'stale' | 'early' | 'idle' | 'sent' | 'skipped';

/**
 * Starts the channel's lane unless a tick is already queued for it, in the caller's transaction (a campaign that
 * starts processing). The tick runs at once or when the last send's delay ends.
 */
export async function wakeLane(tx: Tx, queue: JobQueue, tick: JobSpec<LaneTickPayload>, lane: LaneKey): Promise<void> {
  const [row] = await tx
    .insert(outboundLanes)
    .values({ channelId: lane.channelId, tenantId: lane.tenantId })
    .onConflictDoUpdate({ target: outboundLanes.channelId, set: { updatedAt: sql`now()` } })
    .returning();
  if (!row || row.running) return;
  const [woken] = await tx
    .update(outboundLanes)
    .set({ running: true, seq: sql`${outboundLanes.seq} + 1`, updatedAt: sql`now()` })
    .where(eq(outboundLanes.channelId, lane.channelId))
    .returning({ seq: outboundLanes.seq, wait: secondsUntil(outboundLanes.nextAt) });
  const wait = Math.max(0, Math.ceil(woken!.wait));
  await queue.enqueue(tick, { ...lane, seq: woken!.seq }, { tx, ...(wait > 0 ? { startAfterSeconds: wait } : {}) });
}

interface LaneKey {
  tenantId: number;
  channelId: number;
}

const secondsUntil = (at: typeof outboundLanes.nextAt) => sql<number>`extract(epoch from (${at} - now()))::float8`;

interface Stored {
  outcome: TickOutcome;
  message?: MessageEventDto;
  ticket?: TicketDto | null;
  ticketCreated?: boolean;
  campaignIds: number[];
}

/** One tick of a lane: sends the next recipient of the channel's processing campaigns, or stops the lane. */
export async function runLaneTick(deps: LaneDeps, payload: LaneTickPayload): Promise<TickOutcome> {
  const stored = await withTenant(deps.db, systemContext(payload.tenantId), (tx) => tickInTenant(tx, deps, payload));
  if (stored.message) publishSent(deps.events, payload.tenantId, stored.message, stored.ticket);
  for (const id of stored.campaignIds) {
    deps.events.publish('campaigns.changed', { tenantId: payload.tenantId, campaignId: id });
  }
  return stored.outcome;
}

async function tickInTenant(tx: Tx, deps: LaneDeps, payload: LaneTickPayload): Promise<Stored> {
  const [lane] = await tx
    .select({ seq: outboundLanes.seq, running: outboundLanes.running, wait: secondsUntil(outboundLanes.nextAt) })
    .from(outboundLanes)
    .where(eq(outboundLanes.channelId, payload.channelId))
    .for('update');
  if (!lane || !lane.running || lane.seq !== payload.seq) return { outcome: 'stale', campaignIds: [] };
  // pg-boss started it by this node's clock; the lane's time is the database's. Early by more than a moment: wait.
  if (lane.wait > 0.5) {
    await deps.queue.enqueue(deps.tick, payload, { tx, startAfterSeconds: Math.ceil(lane.wait) });
    return { outcome: 'early', campaignIds: [] };
  }
  const next = await nextRecipient(tx, payload.channelId);
  if (!next) {
    const finished = await finishDrained(tx, payload.channelId);
    await tx
      .update(outboundLanes)
      .set({ running: false, updatedAt: sql`now()` })
      .where(eq(outboundLanes.channelId, payload.channelId));
    return { outcome: 'idle', campaignIds: finished };
  }
  const sent = await sendRecipient(tx, deps, next.campaign, next.recipientId, next.ordinal);
  await tx
    .update(campaigns)
    .set({ processedCount: sql`${campaigns.processedCount} + 1` })
    .where(eq(campaigns.id, next.campaign.id));
  const finished = await finishDrained(tx, payload.channelId);
  // The next tick, the campaign's delay later (from now on the database's clock), carries the lane's next number.
  const delay = pauseAfter(next.campaign, deps.random);
  const [advanced] = await tx
    .update(outboundLanes)
    .set({
      seq: sql`${outboundLanes.seq} + 1`,
      nextAt: sql`now() + make_interval(secs => ${delay})`,
      updatedAt: sql`now()`,
    })
    .where(eq(outboundLanes.channelId, payload.channelId))
    .returning({ seq: outboundLanes.seq });
  await deps.queue.enqueue(deps.tick, { ...payload, seq: advanced!.seq }, { tx, startAfterSeconds: delay });
  return { ...sent, campaignIds: [...new Set([next.campaign.id, ...finished])] };
}

/**
 * The channel's next unsent recipient: the processing campaigns in start order, each campaign's recipients in the
 * order they were added. `ordinal` (how many of the campaign were handled before: its processed count) picks the
 * message in turn.
 */
async function nextRecipient(tx: Tx, channelId: number) {
  const [row] = await tx
    .select({ campaign: campaigns, recipientId: campaignContacts.id })
    .from(campaignContacts)
    .innerJoin(campaigns, eq(campaigns.id, campaignContacts.campaignId))
    .where(
      and(
        eq(campaigns.channelId, channelId),
        eq(campaigns.status, 'processing'),
        eq(campaignContacts.processed, false),
      ),
    )
    .orderBy(asc(campaigns.startAt), asc(campaigns.id), asc(campaignContacts.id))
    .limit(1)
    .for('update', { of: campaignContacts, skipLocked: true });
  if (!row) return null;
  return { ...row, ordinal: row.campaign.processedCount };
}

/** The processing campaigns of the channel with nothing left to send become finished; answers their ids. */
async function finishDrained(tx: Tx, channelId: number): Promise<number[]> {
  const rows = await tx
    .update(campaigns)
    .set({ status: 'finished', finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(campaigns.channelId, channelId),
        eq(campaigns.status, 'processing'),
        sql`not exists (select 1 from campaign_contacts cc where cc.campaign_id = ${campaigns.id} and not cc.processed)`,
      ),
    )
    .returning({ id: campaigns.id });
  return rows.map((row) => row.id);
}

/**
 * Seconds before the lane's next send: a batch's random whole number in [min, max] (mass sending), else the
 * campaign's delay.
 */
export function pauseAfter(
  campaign: Pick<CampaignRow, 'delaySeconds' | 'minDelaySeconds' | 'maxDelaySeconds'>,
  random: () => number = Math.random,
): number {
  const { minDelaySeconds: min, maxDelaySeconds: max } = campaign;
  if (min === null || max === null || max < min) return campaign.delaySeconds;
  return min + Math.floor(random() * (max - min + 1));
}

/** The campaign's non-empty messages, 1-based as `messageRandom` names them. */
function messagesOf(campaign: CampaignRow): { n: number; text: string }[] {
  return [campaign.message1, campaign.message2, campaign.message3]
    .map((text, i) => ({ n: i + 1, text: text ?? '' }))
    .filter((m) => m.text.trim() !== '');
}

export function chooseMessage(
  campaign: Pick<CampaignRow, 'message1' | 'message2' | 'message3'> & { messageOrder: CampaignMessageOrder },
  ordinal: number,
  random: () => number = Math.random,
): { n: number; text: string } | null {
  const options = messagesOf(campaign as CampaignRow);
  if (options.length === 0) return null;
  const index = campaign.messageOrder === 'random' ? Math.floor(random() * options.length) : ordinal;
  return options[index % options.length]!;
}

async function skip(tx: Tx, recipientId: number, reason: string): Promise<Stored> {
  await tx.update(campaignContacts).set({ processed: true, reason }).where(eq(campaignContacts.id, recipientId));
  return { outcome: 'skipped', campaignIds: [] };
}

async function sendRecipient(
  tx: Tx,
  deps: LaneDeps,
  campaign: CampaignRow,
  recipientId: number,
  ordinal: number,
): Promise<Stored> {
  const [recipient] = await tx
    .select({
      contactId: contacts.id,
      name: contacts.name,
      number: contacts.number,
      blocked: contacts.blocked,
      optedOut: sql<boolean>`${contacts.campaignOptOutAt} is not null`,
      isGroup: contacts.isGroup,
      extraInfo: contacts.extraInfo,
      vars: campaignContacts.vars,
    })
    .from(campaignContacts)
    .innerJoin(contacts, eq(contacts.id, campaignContacts.contactId))
    .where(eq(campaignContacts.id, recipientId));
  if (!recipient) return skip(tx, recipientId, 'ERR_NO_CONTACT_FOUND');
  // A blocked contact never receives (product-spec: nothing of theirs is stored either).
  if (recipient.blocked) return skip(tx, recipientId, 'ERR_CONTACT_BLOCKED');
  // A contact who answered a stop word (campaigns.ingestion.ts) gets no campaign again.
  if (recipient.optedOut) return skip(tx, recipientId, 'ERR_CONTACT_OPTED_OUT');
  const tenantId = asTenantId(campaign.tenantId);
  const channel = campaign.channelId ? await findTenantChannel(tx, tenantId, campaign.channelId) : undefined;
  if (!channel) return skip(tx, recipientId, 'ERR_NO_WAPP_FOUND');
  const chosen = chooseMessage(campaign, ordinal, deps.random);
  if (!chosen && !campaign.mediaKey) return skip(tx, recipientId, 'ERR_VALIDATION');
  // The contact's open conversation gets the message; without one, a closed ticket keeps it in the contact's history
  // (a campaign does not fill the agents' queues), and an answer opens a new ticket as any customer message does.
  const { ticket, created } = await findOrCreateActiveTicket(tx, tenantId, {
    contactId: recipient.contactId,
    channelId: channel.id,
    channelType: channel.type,
    isGroup: recipient.isGroup,
    status: 'closed',
    userId: null,
    queueId: campaign.queueId,
    actorUserId: campaign.userId,
  });
  const body = chosen
    ? await renderCampaignText(
        tx,
        chosen.text,
        { ...recipient, vars: recipient.vars ?? [], tenantId: campaign.tenantId },
        ticket.protocol,
      )
    : '';
  const ctx: TenantContext = { ...systemContext(campaign.tenantId), userId: campaign.userId };
  const media = campaign.mediaKey
    ? {
        key: campaign.mediaKey,
        name: campaign.mediaName ?? 'file',
        mime: campaign.mediaType ?? 'application/octet-stream',
        size: campaign.mediaBytes ?? 0,
        mediaType: campaign.mediaPtt
          ? ('ptt' as const)
          : mediaTypeFor(campaign.mediaType ?? '', campaign.mediaName ?? '', false),
        isSticker: false,
      }
    : null;
  const { row: message } = await queueOutboundMessage(tx, deps.queue, ctx, ticket, {
    body: body || (media?.name ?? ''),
    quotedMsgId: null,
    idFront: `campaign-${campaign.id}-${recipientId}`,
    sendType: 'campaign',
    media,
  });
  await tx
    .update(campaignContacts)
    .set({
      processed: true,
      messageId: message.id,
      ticketId: ticket.id,
      messageRandom: chosen?.n ?? null,
      body,
      sentAt: sql`now()`,
    })
    .where(eq(campaignContacts.id, recipientId));
  const ticketDto = await loadTicketDto(tx, ticket.id);
  return {
    outcome: 'sent',
    message: await loadMessageDto(tx, message, deps.links, ticketDto),
    ticket: ticketDto,
    ticketCreated: created,
    campaignIds: [],
  };
}
