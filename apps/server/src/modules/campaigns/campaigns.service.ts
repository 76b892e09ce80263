/**
 * Campaigns (client-contract §12): create, edit, delete, start (schedule), cancel, duplicate, and the recipients
 * list. Rules in campaigns.rules.ts; the sends in campaigns.lane.ts. Start schedules the campaign: at its start time
 * the begin job makes it `processing` and wakes its channel's lane. Cancel stops it before the next send; starting it
 * again (a new future start) resumes at the next unsent recipient: the sent ones stay sent.
 */
import { eq } from 'drizzle-orm';
import type { CampaignDto, CampaignInput, CampaignRecipientDto } from '@conversa/shared';
import type { Database, Tx } from '../../platform/db/client.js';
import { withTenant } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { JobQueue, JobSpec } from '../../platform/jobs/queue.js';
import { newMediaKey, type MediaStore } from '../../platform/storage/media-store.js';
import { findTenantChannel } from '../channels/index.js';
import { queues } from '../queues/queues.tables.js';
import { tenants } from '../tenants/tenants.tables.js';
import { toCampaignDto, toRecipientDto } from './campaigns.dto.js';
import * as repo from './campaigns.repository.js';
import type { CampaignRow } from './campaigns.repository.js';
import { assertEditable, startOf } from './campaigns.rules.js';
import './campaigns.events.js';

export interface CampaignMedia {
  key: string;
  name: string;
  mime: string;
  size: number;
}

export interface BeginPayload {
  tenantId: number;
  campaignId: number;
}

export interface CampaignsServiceDeps {
  db: Database;
  events: EventBus;
  queue: JobQueue;
  store: MediaStore;
  begin: JobSpec<BeginPayload>;
  /** A media URL's file fetched into the store (campaigns.bulk.media.ts); absent: a URL alone is refused. */
  fetchMedia?: (ctx: AuthedContext, url: string) => Promise<CampaignMedia>;
}

async function timeZoneOf(tx: Tx, tenantId: number): Promise<string> {
  const [row] = await tx.select({ timeZone: tenants.timezone }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.timeZone ?? 'America/Sao_Paulo';
}

async function found(tx: Tx, id: number, lock = false): Promise<CampaignRow> {
  const row = await repo.findCampaign(tx, id, lock);
  // A mass-sending batch is the engine's too, but not a campaign of these routes.
  if (row?.kind !== 'campaign') throw fail('ERR_NO_CAMPAIGN_FOUND');
  return row;
}

/**
 * The stored form: product-spec §5 (name, session and a message required; start after now). A file alone (uploaded
 * now, fetched from the media URL, or kept from before: `storedFile`) is a message.
 */
async function formValues(
  tx: Tx,
  ctx: AuthedContext,
  input: CampaignInput,
  media: CampaignMedia | null | undefined,
  storedFile = false,
) {
  if (input.sessionId === null) throw fail('ERR_VALIDATION', 'sessionId');
  const messages = [input.message1, input.message2, input.message3];
  if (!messages.some((m) => m && m.trim()) && !media && !storedFile) throw fail('ERR_VALIDATION', 'message1');
  if (!(await findTenantChannel(tx, ctx.tenantId, input.sessionId))) throw fail('ERR_NO_WAPP_FOUND');
  if (input.queueId) {
    const [queue] = await tx.select({ id: queues.id }).from(queues).where(eq(queues.id, input.queueId));
    if (!queue) throw fail('ERR_NO_QUEUE_FOUND');
  }
  const startAt = startOf(input.start, await timeZoneOf(tx, ctx.tenantId));
  return {
    name: input.name,
    startAt,
    channelId: input.sessionId,
    delaySeconds: input.delay,
    message1: input.message1 ?? null,
    message2: input.message2 ?? null,
    message3: input.message3 ?? null,
    mediaUrl: input.mediaUrl ?? null,
    queueId: input.queueId ?? null,
    ...(input.messageOrder ? { messageOrder: input.messageOrder } : {}),
    ...(media ? { mediaKey: media.key, mediaName: media.name, mediaType: media.mime, mediaBytes: media.size } : {}),
  };
}

export function createCampaignsService(deps: CampaignsServiceDeps) {
  const { db, events } = deps;
  const changed = (tenantId: number, campaignId: number, action: 'create' | 'update' | 'delete' = 'update') =>
    events.publish('campaigns.changed', { tenantId, campaignId, action });

  async function dtoOf(tx: Tx, row: CampaignRow): Promise<CampaignDto> {
    const counts = await repo.countsOf(tx, [row.id]);
    return toCampaignDto(row, counts.get(row.id));
  }

  /**
   * A media URL without an uploaded file: its file is fetched once into the store and becomes the campaign's file
   * (every recipient gets the same bytes); an edit that keeps the URL keeps the file.
   */
  async function urlMedia(
    ctx: AuthedContext,
    input: CampaignInput,
    media: CampaignMedia | null | undefined,
    stored?: CampaignRow,
  ): Promise<CampaignMedia | null> {
    if (media || !input.mediaUrl || !deps.fetchMedia) return media ?? null;
    if (stored?.mediaKey && stored.mediaUrl === input.mediaUrl) return null;
    return deps.fetchMedia(ctx, input.mediaUrl);
  }

  /** A stored file the campaign no longer uses is removed after the commit (never one another campaign shares). */
  async function dropMedia(key: string | null | undefined) {
    if (key) await deps.store.delete(key).catch(() => undefined);
  }

  return {
    async list(ctx: AuthedContext): Promise<CampaignDto[]> {
      return withTenant(db, ctx, async (tx) => {
        const rows = await repo.listCampaigns(tx);
        const counts = await repo.countsOf(
          tx,
          rows.map((row) => row.id),
        );
        return rows.map((row) => toCampaignDto(row, counts.get(row.id)));
      });
    },

    async show(ctx: AuthedContext, id: number): Promise<CampaignDto> {
      return withTenant(db, ctx, async (tx) => dtoOf(tx, await found(tx, id)));
    },

    async create(ctx: AuthedContext, input: CampaignInput, uploaded?: CampaignMedia | null): Promise<CampaignDto> {
      let media = uploaded ?? null;
      try {
        media = await urlMedia(ctx, input, media);
        const dto = await withTenant(db, ctx, async (tx) => {
          const values = await formValues(tx, ctx, input, media);
          const row = await repo.insertCampaign(tx, {
            ...values,
            tenantId: ctx.tenantId,
            userId: ctx.userId,
            status: 'pending',
          });
          return dtoOf(tx, row);
        });
        changed(ctx.tenantId, dto.id, 'create');
        return dto;
      } catch (error) {
        await dropMedia(media?.key);
        throw error;
      }
    },

    async update(
      ctx: AuthedContext,
      id: number,
      input: CampaignInput,
      uploaded?: CampaignMedia | null,
    ): Promise<CampaignDto> {
      let replaced: string | null = null;
      let media = uploaded ?? null;
      try {
        const current = await withTenant(db, ctx, (tx) => found(tx, id));
        assertEditable(current.status);
        media = await urlMedia(ctx, input, media, current);
        const dto = await withTenant(db, ctx, async (tx) => {
          const row = await found(tx, id, true);
          assertEditable(row.status);
          const values = await formValues(tx, ctx, input, media, Boolean(row.mediaKey));
          if (media) replaced = row.mediaKey;
          return dtoOf(tx, await repo.updateCampaign(tx, id, values));
        });
        await dropMedia(replaced);
        changed(ctx.tenantId, id);
        return dto;
      } catch (error) {
        await dropMedia(media?.key);
        throw error;
      }
    },

    /** A scheduled or processing campaign is canceled first (its sends would stop half-way unseen). */
    async remove(ctx: AuthedContext, id: number): Promise<void> {
      const key = await withTenant(db, ctx, async (tx) => {
        const row = await found(tx, id, true);
        if (row.status === 'scheduled' || row.status === 'processing') {
          throw fail('ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING');
        }
        await repo.deleteCampaign(tx, id);
        return row.mediaKey;
      });
      await dropMedia(key);
      changed(ctx.tenantId, id, 'delete');
    },

    /**
     * Schedules the campaign (product-spec §5: pending or canceled, with contacts and a future start). The begin job
     * runs at the start; a lost one is found by the due sweep.
     */
    async start(ctx: AuthedContext, id: number): Promise<CampaignDto> {
      const dto = await withTenant(db, ctx, async (tx) => {
        const row = await found(tx, id, true);
        assertEditable(row.status);
        if (!row.startAt || row.startAt.getTime() <= Date.now()) throw fail('ERROR_CAMPAIGN_DATE_NOT_VALID');
        if (!(await repo.hasRecipients(tx, id))) throw fail('ERR_CAMPAIGN_CONTACTS');
        const updated = await repo.updateCampaign(tx, id, { status: 'scheduled', finishedAt: null });
        const seconds = Math.max(0, Math.ceil((row.startAt.getTime() - Date.now()) / 1000));
        await deps.queue.enqueue(
          deps.begin,
          { tenantId: ctx.tenantId, campaignId: id },
          { tx, ...(seconds > 0 ? { startAfterSeconds: seconds } : {}) },
        );
        return dtoOf(tx, updated);
      });
      changed(ctx.tenantId, id);
      return dto;
    },

    /** Stops a scheduled or processing campaign before its next send; anything else is left as it is. */
    async cancel(ctx: AuthedContext, id: number): Promise<CampaignDto> {
      const dto = await withTenant(db, ctx, async (tx) => {
        const row = await found(tx, id, true);
        if (row.status !== 'scheduled' && row.status !== 'processing') return dtoOf(tx, row);
        return dtoOf(tx, await repo.updateCampaign(tx, id, { status: 'canceled' }));
      });
      changed(ctx.tenantId, id);
      return dto;
    },

    /** A pending copy with the same form, file and contacts, none sent ("<name> (copy)" is left to the user). */
    async duplicate(ctx: AuthedContext, id: number): Promise<CampaignDto> {
      const dto = await withTenant(db, ctx, async (tx) => {
        const row = await found(tx, id);
        const { id: _id, createdAt: _c, updatedAt: _u, finishedAt: _f, processedCount: _p, ...form } = row;
        const copy = await repo.insertCampaign(tx, {
          ...form,
          // The copy has a file of its own: deleting one campaign must not remove the other's.
          mediaKey: await copyMedia(deps.store, row, ctx.tenantId),
          status: 'pending',
          startAt: null,
          userId: ctx.userId,
        });
        await repo.copyRecipients(tx, ctx.tenantId, id, copy.id);
        return dtoOf(tx, copy);
      });
      changed(ctx.tenantId, dto.id, 'create');
      return dto;
    },

    async recipients(ctx: AuthedContext, id: number): Promise<CampaignRecipientDto[]> {
      return withTenant(db, ctx, async (tx) => {
        await found(tx, id);
        return (await repo.listRecipients(tx, id)).map(toRecipientDto);
      });
    },

    async addRecipients(ctx: AuthedContext, id: number, contactIds: number[]): Promise<{ added: number }> {
      const added = await withTenant(db, ctx, async (tx) => {
        const row = await found(tx, id, true);
        assertEditable(row.status);
        return repo.addRecipients(tx, ctx.tenantId, id, contactIds);
      });
      changed(ctx.tenantId, id);
      return { added };
    },

    async addRecipientsByTags(ctx: AuthedContext, id: number, tagIds: number[]): Promise<{ added: number }> {
      const added = await withTenant(db, ctx, async (tx) => {
        const row = await found(tx, id, true);
        assertEditable(row.status);
        return repo.addRecipients(tx, ctx.tenantId, id, await repo.contactsWithTags(tx, tagIds));
      });
      changed(ctx.tenantId, id);
      return { added };
    },

    async removeRecipient(ctx: AuthedContext, id: number, contactId: number): Promise<void> {
      await withTenant(db, ctx, async (tx) => {
        const row = await found(tx, id, true);
        assertEditable(row.status);
        if (!(await repo.removeRecipient(tx, id, contactId))) throw fail('ERR_NO_CAMPAIGN_CONTACTS_NOT_FOUND');
      });
      changed(ctx.tenantId, id);
    },

    async removeAllRecipients(ctx: AuthedContext, id: number): Promise<void> {
      await withTenant(db, ctx, async (tx) => {
        const row = await found(tx, id, true);
        assertEditable(row.status);
        await repo.removeAllRecipients(tx, id);
      });
      changed(ctx.tenantId, id);
    },
  };
}

export type CampaignsService = ReturnType<typeof createCampaignsService>;

/** A stored file copied under a new key of the same tenant. */
async function copyMedia(store: MediaStore, row: CampaignRow, tenantId: number): Promise<string | null> {
  if (!row.mediaKey) return null;
  const stored = await store.get(row.mediaKey);
  if (!stored) return null;
  const copy = newMediaKey(tenantId, row.mediaName ?? 'file');
  await store.put(copy, stored.stream, row.mediaType ?? 'application/octet-stream');
  return copy;
}
