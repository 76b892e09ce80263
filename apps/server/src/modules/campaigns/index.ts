/**
 * Campaigns, mass sending and the outbound engine under them (issue 25): routes, the lane, begin and sweep jobs,
 * realtime.
 */
import path from 'node:path';
import type { AppModule } from '../../kernel/module.js';
import { outboundFetchOf } from '../../platform/net/outbound.js';
import { createMediaStore } from '../../platform/storage/media-store.js';
import { withMediaQuota } from '../../platform/storage/media-quota.js';
import { createMediaLinks, ticketSenderOf } from '../messages/index.js';
import { createMediaQuota } from '../tenants/index.js';
import { createBulkService } from './campaigns.bulk.js';
import { storeBulkMedia } from './campaigns.bulk.media.js';
import { bulkRoutes } from './campaigns.bulk.routes.js';
import { createCampaignsJobs } from './campaigns.jobs.js';
import { registerCampaignsRealtime } from './campaigns.realtime.js';
import { createCampaignReportService } from './campaigns.report.js';
import { campaignReportRoutes } from './campaigns.report.routes.js';
import { campaignsRoutes } from './campaigns.routes.js';
import { createCampaignsService } from './campaigns.service.js';

export { createCampaignIngestionHook, type CampaignIngestionHook } from './campaigns.ingestion.js';
export { BEGIN_CAMPAIGN_JOB, LANE_TICK_JOB, SWEEP_CAMPAIGNS_JOB } from './campaigns.jobs.js';

export const campaignsModule: AppModule = (platform) => {
  const { db, events } = platform;
  const links = createMediaLinks(platform.secrets.jwtSecret, platform.config.publicUrl);
  const jobs = createCampaignsJobs({ db, events, queue: platform.jobs, links });
  // The same store as the messages module's uploads: the campaign's file becomes each sent message's media.
  const store = withMediaQuota(
    createMediaStore({ root: path.join(platform.config.dataDir, 'media'), s3: platform.config.mediaS3 }),
    createMediaQuota(db, platform.config.mediaTenantQuotaBytes),
  );
  const mediaDeps = {
    db,
    store,
    outbound: outboundFetchOf(platform.config),
    publicUrl: platform.config.publicUrl,
    maxBytes: platform.config.mediaMaxUploadBytes,
  };
  const service = createCampaignsService({
    db,
    events,
    queue: platform.jobs,
    store,
    begin: jobs.begin,
    fetchMedia: (ctx, url) => storeBulkMedia(mediaDeps, ctx, url, 'mediaUrl'),
  });
  const bulk = createBulkService({
    events,
    queue: platform.jobs,
    tick: jobs.tick,
    ...mediaDeps,
    tickets: ticketSenderOf(platform),
  });
  registerCampaignsRealtime({ events, realtime: platform.realtime });
  return {
    plugin: async (app) => {
      await app.register(campaignsRoutes(service, { store, maxUploadBytes: platform.config.mediaMaxUploadBytes }));
      await app.register(campaignReportRoutes(createCampaignReportService({ db })));
      await app.register(bulkRoutes(bulk, { store, maxUploadBytes: platform.config.mediaMaxUploadBytes }));
    },
    jobs: [jobs.tick, jobs.begin, jobs.sweep] as never[],
  };
};
