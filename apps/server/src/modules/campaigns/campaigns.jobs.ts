/**
 * The outbound engine's jobs: `campaigns.lane` (one tick of a channel's lane, campaigns.lane.ts), `campaigns.begin`
 * (a scheduled campaign's start: it becomes processing and wakes its lane) and the `campaigns.sweep` cron (every
 * minute: scheduled campaigns whose begin job was lost, and lanes whose tick was lost, are started again; a
 * duplicate tick is harmless, the lane's number makes it stale).
 */
import { and, eq, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../platform/db/client.js';
import { systemContext, withSystem, withTenant } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { defineJob, type JobDefinition, type JobQueue } from '../../platform/jobs/queue.js';
import type { MediaLinks } from '../messages/index.js';
import { runLaneTick, wakeLane, type LaneTickPayload } from './campaigns.lane.js';
import { campaigns, outboundLanes } from './campaigns.tables.js';
import type { BeginPayload } from './campaigns.service.js';
import './campaigns.events.js';

export const LANE_TICK_JOB = 'campaigns.lane';
export const BEGIN_CAMPAIGN_JOB = 'campaigns.begin';
export const SWEEP_CAMPAIGNS_JOB = 'campaigns.sweep';
/** A running lane whose next send is this late has lost its tick (a job that exhausted its retries). */
export const LANE_STUCK_SECONDS = 120;

const laneTickSchema = z.object({
  tenantId: z.number().int().positive(),
  channelId: z.number().int().positive(),
  seq: z.number().int().nonnegative(),
});
const beginSchema = z.object({ tenantId: z.number().int().positive(), campaignId: z.number().int().positive() });
const sweepSchema = z.object({});

export interface CampaignsJobs {
  tick: JobDefinition<LaneTickPayload>;
  begin: JobDefinition<BeginPayload>;
  sweep: JobDefinition<z.infer<typeof sweepSchema>>;
}

export interface CampaignsJobsDeps {
  db: Database;
  queue: JobQueue;
  events: EventBus;
  links: MediaLinks;
  random?: () => number;
}

/** A scheduled campaign whose start has come becomes processing and wakes its channel's lane; else nothing. */
export async function beginCampaign(
  deps: CampaignsJobsDeps,
  tick: JobDefinition<LaneTickPayload>,
  payload: BeginPayload,
): Promise<boolean> {
  const begun = await withTenant(deps.db, systemContext(payload.tenantId), async (tx) => {
    const [row] = await tx
      .update(campaigns)
      .set({ status: 'processing', updatedAt: sql`now()` })
      .where(
        and(
          eq(campaigns.id, payload.campaignId),
          eq(campaigns.status, 'scheduled'),
          // pg-boss started it by this node's clock: a moment early still begins; the sweep takes a later one.
          lte(campaigns.startAt, sql`now() + interval '2 seconds'`),
        ),
      )
      .returning({ channelId: campaigns.channelId });
    if (!row?.channelId) return false;
    await wakeLane(tx, deps.queue, tick, { tenantId: payload.tenantId, channelId: row.channelId });
    return true;
  });
  if (begun) deps.events.publish('campaigns.changed', { tenantId: payload.tenantId, campaignId: payload.campaignId });
  return begun;
}

/** The sweep's work: due scheduled campaigns begun, stuck lanes woken (each in its tenant's transaction). */
export async function sweepCampaigns(deps: CampaignsJobsDeps, jobs: CampaignsJobs): Promise<void> {
  const { due, stuck } = await withSystem(deps.db, 'campaigns.sweep', async (tx) => ({
    due: await tx
      .select({ tenantId: campaigns.tenantId, campaignId: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.status, 'scheduled'), lte(campaigns.startAt, sql`now()`)))
      .limit(200),
    stuck: await tx
      .select({ tenantId: outboundLanes.tenantId, channelId: outboundLanes.channelId })
      .from(outboundLanes)
      .where(
        and(
          eq(outboundLanes.running, true),
          lte(outboundLanes.nextAt, sql`now() - make_interval(secs => ${LANE_STUCK_SECONDS})`),
        ),
      )
      .limit(200),
  }));
  for (const campaign of due) await beginCampaign(deps, jobs.tick, campaign);
  for (const lane of stuck) {
    await withTenant(deps.db, systemContext(lane.tenantId), async (tx) => {
      // Marked idle, then woken: a new number, so the lost tick (if it ever runs) is stale.
      await tx.update(outboundLanes).set({ running: false }).where(eq(outboundLanes.channelId, lane.channelId));
      await wakeLane(tx, deps.queue, jobs.tick, lane);
    });
  }
}

export function createCampaignsJobs(deps: CampaignsJobsDeps): CampaignsJobs {
  const jobs = {} as CampaignsJobs;
  jobs.tick = defineJob<LaneTickPayload>({
    name: LANE_TICK_JOB,
    schema: laneTickSchema,
    retryLimit: 10,
    retryDelaySeconds: 5,
    expireInSeconds: 120,
    async handler(payload) {
      await runLaneTick({ ...deps, tick: jobs.tick }, payload);
    },
  });
  jobs.begin = defineJob<BeginPayload>({
    name: BEGIN_CAMPAIGN_JOB,
    schema: beginSchema,
    retryLimit: 5,
    async handler(payload) {
      await beginCampaign(deps, jobs.tick, payload);
    },
  });
  jobs.sweep = defineJob({
    name: SWEEP_CAMPAIGNS_JOB,
    schema: sweepSchema,
    cron: '* * * * *',
    retryLimit: 0,
    async handler() {
      await sweepCampaigns(deps, jobs);
    },
  });
  return jobs;
}
