/**
 * Mass sending (client-contract §12 `/bulk/`, `/bulkVariable/`, `/bulkClose/`; product-spec §5): a batch of numbers is
 * a list of the outbound engine (kind `bulk`), processing from the moment it is accepted, paced by a random pause in
 * [min, max] seconds (campaigns.lane.ts). The numbers become the tenant's contacts (found by number, or made); each
 * recipient gets the message once, through the same lane, skip rules (blocked, opted out) and delivery states as a
 * campaign's. Any profile may send on a channel it may use; an agent sees its own batches, supervisors and admins all.
 *
 * Product-spec §5: max greater than min; a connection; numbers; one send option (a message, a media URL with its
 * description, an .ogg voice URL, or a file with its description). Channels whose contacts are not phone numbers
 * (Telegram, Meta's inboxes) and waba (outside the 24-hour window only templates go) are refused.
 */
import { and, desc, eq } from 'drizzle-orm';
import {
  BULK_CHANNEL_TYPES,
  bulkNumberDigits,
  type BulkBatchDto,
  type BulkFormFields,
  type BulkSend,
  type BulkTicketSend,
  type BulkVariable,
  type MessageEventDto,
} from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import { asTenantId, withTenant } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { JobQueue, JobSpec } from '../../platform/jobs/queue.js';
import { findTenantChannel } from '../channels/index.js';
import { upsertInboundContacts } from '../contacts/index.js';
import { mediaTypeFor, type OutboundValues, type ticketSenderOf } from '../messages/index.js';
import { mayUseChannel } from '../tickets/index.js';
import { storeBulkMedia, type BulkMediaDeps } from './campaigns.bulk.media.js';
import { wakeLane, type LaneTickPayload } from './campaigns.lane.js';
import * as repo from './campaigns.repository.js';
import type { CampaignRow } from './campaigns.repository.js';
import type { CampaignMedia } from './campaigns.service.js';
import { campaignContacts, campaigns } from './campaigns.tables.js';

export interface BulkDeps extends BulkMediaDeps {
  events: EventBus;
  queue: JobQueue;
  tick: JobSpec<LaneTickPayload>;
  /** The agent's send into a ticket (the `ticketId` path). */
  tickets: ReturnType<typeof ticketSenderOf>;
}

/** One batch's recipients: digits and, for the variables tab, the line's values. */
interface Recipient {
  digits: string;
  vars: string[] | null;
}

/** What a batch sends: a text, or a stored file with its caption. */
interface Content {
  text: string | null;
  media: CampaignMedia | null;
  ptt: boolean;
}

const RECIPIENT_CHUNK = 1000;
/** Supervisors and above see every batch of the tenant; an agent its own. */
const seesAll = (ctx: AuthedContext): boolean => ctx.profile !== 'user';
const LIST_LIMIT = 50;

function pacing(min: number, max: number): void {
  if (max <= min) throw fail('ERR_VALIDATION', 'max');
}

/** A number given twice (or in two spellings) is one recipient: the recipients' unique index keeps the first. */
function numbersOf(values: readonly string[]): Recipient[] {
  const out: Recipient[] = [];
  for (const value of values) {
    const digits = bulkNumberDigits(value);
    if (!digits) throw fail('ERR_VALIDATION', 'arrayNumbers');
    out.push({ digits, vars: null });
  }
  return out;
}

/** The "number,var1,var2" lines: blank lines ignored, a bad number refuses the batch. */
export function variableLinesOf(text: string): Recipient[] {
  const out: Recipient[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const [number = '', ...vars] = line.split(',').map((part) => part.trim());
    const digits = bulkNumberDigits(number);
    if (!digits) throw fail('ERR_VALIDATION', 'number');
    out.push({ digits, vars });
  }
  if (out.length === 0) throw fail('ERR_VALIDATION', 'number');
  return out;
}

export function toBulkDto(row: CampaignRow, counts: repo.CampaignCounts = repo.ZERO_COUNTS): BulkBatchDto {
  return {
    id: row.id,
    status: row.status === 'finished' || row.status === 'canceled' ? row.status : 'processing',
    channelId: row.channelId,
    userId: row.userId,
    total: counts.contactsCount,
    pendentesEnvio: counts.pendentesEnvio,
    pendentesEntrega: counts.pendentesEntrega,
    recebidas: counts.recebidas,
    lidas: counts.lidas,
    failed: counts.failed,
    skipped: counts.skipped,
    min: row.minDelaySeconds ?? row.delaySeconds,
    max: row.maxDelaySeconds ?? row.delaySeconds,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export function createBulkService(deps: BulkDeps) {
  const { db, events } = deps;

  /** The channel the batch goes on: the tenant's, of a number-based type, one the caller may use. */
  async function channelFor(tx: Tx, ctx: AuthedContext, channelId: number) {
    const channel = await findTenantChannel(tx, asTenantId(ctx.tenantId), channelId);
    if (!channel) throw fail('ERR_NO_WAPP_FOUND');
    if (!(BULK_CHANNEL_TYPES as readonly string[]).includes(channel.type)) throw fail('ERR_VALIDATION', 'whatsappId');
    if (!(await mayUseChannel(tx, ctx, channel.id))) throw fail('ERR_NO_PERMISSION');
    return channel;
  }

  /** The JSON tabs' content: a voice URL, a media URL with its description, or the message (in that order). */
  async function contentOf(
    ctx: AuthedContext,
    input: Pick<BulkSend, 'message' | 'mediaUrl' | 'mediaDescription' | 'voiceUrl'>,
  ): Promise<Content> {
    if (input.voiceUrl) {
      return { text: null, media: await storeBulkMedia(deps, ctx, input.voiceUrl, 'voiceUrl'), ptt: true };
    }
    if (input.mediaUrl) {
      if (!input.mediaDescription) throw fail('ERR_VALIDATION', 'mediaDescription');
      const media = await storeBulkMedia(deps, ctx, input.mediaUrl, 'mediaUrl');
      return { text: input.mediaDescription, media, ptt: false };
    }
    if (!input.message) throw fail('ERR_VALIDATION', 'message');
    return { text: input.message, media: null, ptt: false };
  }

  /**
   * The batch in one transaction: its row (processing), its contacts and recipients, and its lane woken. A stored
   * file is removed when the transaction fails.
   */
  async function accept(
    ctx: AuthedContext,
    batch: { channelId: number; min: number; max: number; recipients: Recipient[] },
    content: Content,
  ): Promise<BulkBatchDto> {
    try {
      const dto = await withTenant(db, ctx, async (tx) => {
        const channel = await channelFor(tx, ctx, batch.channelId);
        const row = await repo.insertCampaign(tx, {
          tenantId: ctx.tenantId,
          kind: 'bulk',
          name: `bulk ${new Date().toISOString()}`,
          status: 'processing',
          startAt: new Date(),
          channelId: channel.id,
          // A batch paces by min and max only (campaigns.lane.ts pauseAfter).
          delaySeconds: 0,
          minDelaySeconds: batch.min,
          maxDelaySeconds: batch.max,
          message1: content.text,
          ...(content.media
            ? {
                mediaKey: content.media.key,
                mediaName: content.media.name,
                mediaType: content.media.mime,
                mediaBytes: content.media.size,
                mediaPtt: content.ptt,
              }
            : {}),
          userId: ctx.userId,
        });
        await addRecipients(tx, ctx.tenantId, row.id, batch.recipients);
        await wakeLane(tx, deps.queue, deps.tick, { tenantId: ctx.tenantId, channelId: channel.id });
        const counts = await repo.countsOf(tx, [row.id]);
        return toBulkDto(row, counts.get(row.id));
      });
      events.publish('campaigns.changed', { tenantId: ctx.tenantId, campaignId: dto.id, action: 'create' });
      return dto;
    } catch (error) {
      if (content.media) await deps.store.delete(content.media.key).catch(() => undefined);
      throw error;
    }
  }

  /** A batch the caller may see: its own, or any of the tenant's for supervisors and admins. */
  async function found(tx: Tx, ctx: AuthedContext, id: number, lock = false): Promise<CampaignRow> {
    const row = await repo.findCampaign(tx, id, lock);
    if (row?.kind !== 'bulk' || (!seesAll(ctx) && row.userId !== ctx.userId)) {
      throw fail('ERR_NO_CAMPAIGN_FOUND');
    }
    return row;
  }

  return {
    /**
     * One send into a ticket the caller may write to, at once (POST /messages' rules): a voice URL, a media URL (its
     * description the caption, if any) or the message.
     */
    async sendIntoTicket(ctx: AuthedContext, input: BulkTicketSend): Promise<MessageEventDto> {
      const url = input.voiceUrl ?? input.mediaUrl;
      const field = input.voiceUrl ? 'voiceUrl' : 'mediaUrl';
      if (!url && !input.message) throw fail('ERR_VALIDATION', 'message');
      const media = url ? await storeBulkMedia(deps, ctx, url, field) : null;
      const values: OutboundValues = {
        body: (media ? input.mediaDescription : input.message) ?? '',
        quotedMsgId: null,
        idFront: input.idFront ?? null,
        sendType: 'chat',
        media: media && {
          ...media,
          mediaType: input.voiceUrl ? 'ptt' : mediaTypeFor(media.mime, media.name, false),
          isSticker: false,
        },
      };
      return deps.tickets.sendMessage(ctx, input.ticketId, values);
    },

    async send(ctx: AuthedContext, input: BulkSend): Promise<BulkBatchDto> {
      pacing(input.min, input.max);
      const recipients = numbersOf(input.arrayNumbers);
      await withTenant(db, ctx, (tx) => channelFor(tx, ctx, input.whatsappId));
      const content = await contentOf(ctx, input);
      return accept(ctx, { channelId: input.whatsappId, min: input.min, max: input.max, recipients }, content);
    },

    /** The message (its {{var1}}... filled per line) always; a file by URL goes with it as its caption. */
    async sendVariable(ctx: AuthedContext, input: BulkVariable): Promise<BulkBatchDto> {
      pacing(input.min, input.max);
      const recipients = variableLinesOf(input.number);
      if (!input.message) throw fail('ERR_VALIDATION', 'message');
      await withTenant(db, ctx, (tx) => channelFor(tx, ctx, input.whatsappId));
      const url = input.voiceUrl ?? input.mediaUrl;
      const field = input.voiceUrl ? 'voiceUrl' : 'mediaUrl';
      const content: Content = {
        text: input.message,
        media: url ? await storeBulkMedia(deps, ctx, url, field) : null,
        ptt: Boolean(input.voiceUrl),
      };
      return accept(ctx, { channelId: input.whatsappId, min: input.min, max: input.max, recipients }, content);
    },

    /** The multipart form: a file with its description (or as a voice note), or the message. */
    async sendForm(ctx: AuthedContext, fields: BulkFormFields, file: CampaignMedia | null): Promise<BulkBatchDto> {
      const ptt = fields.voiceLocal === 'true' || fields.voiceLocal === 'enabled';
      try {
        pacing(fields.min, fields.max);
        const recipients = numbersOf(fields.arrayNumbers);
        if (file && !ptt && !fields.mediaLocalDescription) throw fail('ERR_VALIDATION', 'mediaLocalDescription');
        if (!file && !fields.message) throw fail('ERR_VALIDATION', 'message');
        const content: Content = file
          ? { text: ptt ? null : (fields.mediaLocalDescription ?? null), media: file, ptt: ptt && isAudio(file) }
          : { text: fields.message ?? null, media: null, ptt: false };
        return await accept(
          ctx,
          { channelId: fields.whatsappId, min: fields.min, max: fields.max, recipients },
          content,
        );
      } catch (error) {
        if (file) await deps.store.delete(file.key).catch(() => undefined);
        throw error;
      }
    },

    async list(ctx: AuthedContext): Promise<BulkBatchDto[]> {
      return withTenant(db, ctx, async (tx) => {
        const mine = seesAll(ctx) ? undefined : eq(campaigns.userId, ctx.userId);
        const rows = await tx
          .select()
          .from(campaigns)
          .where(and(eq(campaigns.kind, 'bulk'), mine))
          .orderBy(desc(campaigns.id))
          .limit(LIST_LIMIT);
        const counts = await repo.countsOf(
          tx,
          rows.map((r) => r.id),
        );
        return rows.map((row) => toBulkDto(row, counts.get(row.id)));
      });
    },

    async show(ctx: AuthedContext, id: number): Promise<BulkBatchDto> {
      return withTenant(db, ctx, async (tx) => {
        const row = await found(tx, ctx, id);
        return toBulkDto(row, (await repo.countsOf(tx, [id])).get(id));
      });
    },

    /** Stops a processing batch before its next send; a finished or canceled one is answered as it is. */
    async cancel(ctx: AuthedContext, id: number): Promise<BulkBatchDto> {
      const dto = await withTenant(db, ctx, async (tx) => {
        const row = await found(tx, ctx, id, true);
        const updated = row.status === 'processing' ? await repo.updateCampaign(tx, id, { status: 'canceled' }) : row;
        return toBulkDto(updated, (await repo.countsOf(tx, [id])).get(id));
      });
      events.publish('campaigns.changed', { tenantId: ctx.tenantId, campaignId: id });
      return dto;
    },
  };
}

export type BulkService = ReturnType<typeof createBulkService>;

const isAudio = (file: CampaignMedia) => file.mime.startsWith('audio/');

/** The numbers as the tenant's contacts (found by number in its ninth-digit forms, or made) and their recipient rows. */
async function addRecipients(tx: Tx, tenantId: number, campaignId: number, recipients: Recipient[]): Promise<void> {
  for (let i = 0; i < recipients.length; i += RECIPIENT_CHUNK) {
    const chunk = recipients.slice(i, i + RECIPIENT_CHUNK);
    const rows = await upsertInboundContacts(
      tx,
      asTenantId(tenantId),
      chunk.map((r) => ({ id: r.digits, idField: 'number', name: r.digits, number: r.digits, isGroup: false })),
    );
    const values = chunk.flatMap((r, j) => {
      const contact = rows[j];
      return contact ? [{ tenantId, campaignId, contactId: contact.id, vars: r.vars }] : [];
    });
    if (values.length > 0) await tx.insert(campaignContacts).values(values).onConflictDoNothing();
  }
}
