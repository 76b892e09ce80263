/** Scheduled messages (agendamentos): routes, the send and sweep jobs, realtime. */
import path from 'node:path';
import type { AppModule } from '../../modules.js';
import { createMediaStore } from '../../platform/storage/media-store.js';
import { withMediaQuota } from '../../platform/storage/media-quota.js';
import { createMediaLinks } from '../messages/index.js';
import { createMediaQuota } from '../tenants/index.js';
import { createSchedulesJobs } from './schedules.jobs.js';
import { registerSchedulesRealtime } from './schedules.realtime.js';
import { schedulesRoutes } from './schedules.routes.js';
import { createSchedulesService } from './schedules.service.js';

export { scheduledMessages } from './schedules.tables.js';
export { createSchedulesJobs, SEND_SCHEDULE_JOB, SWEEP_SCHEDULES_JOB, sweepDueSchedules } from './schedules.jobs.js';

export const schedulesModule: AppModule = (platform) => {
  const { db, events } = platform;
  const links = createMediaLinks(platform.secrets.jwtSecret, platform.config.publicUrl);
  const jobs = createSchedulesJobs({ db, events, queue: platform.jobs, links });
  registerSchedulesRealtime({ db, events, realtime: platform.realtime });
  // The same store as the messages module's uploads: a scheduled file becomes the sent message's media.
  const store = withMediaQuota(
    createMediaStore({ root: path.join(platform.config.dataDir, 'media'), s3: platform.config.mediaS3 }),
    createMediaQuota(db, platform.config.mediaTenantQuotaBytes),
  );
  const service = createSchedulesService({ db, events, queue: platform.jobs, jobs, store });
  return {
    plugin: schedulesRoutes(service, { store, maxUploadBytes: platform.config.mediaMaxUploadBytes }),
    jobs: [jobs.send, jobs.sweep] as never[],
  };
};
