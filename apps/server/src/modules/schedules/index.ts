/** Scheduled messages (agendamentos): routes, the send and sweep jobs, realtime. */
import path from 'node:path';
import type { AppModule } from '../../kernel/module.js';
import type { Platform } from '../../platform/platform.js';
import { createMediaStore } from '../../platform/storage/media-store.js';
import { withMediaQuota } from '../../platform/storage/media-quota.js';
import { createMediaLinks, type MessageSchedulingPort } from '../messages/index.js';
import { createMediaQuota } from '../tenants/index.js';
import { createSchedulesJobs, type SchedulesJobs } from './schedules.jobs.js';
import { registerSchedulesRealtime } from './schedules.realtime.js';
import { schedulesRoutes } from './schedules.routes.js';
import { createSchedulesService, type SchedulesService } from './schedules.service.js';

export { createSchedulesJobs, SEND_SCHEDULE_JOB, SWEEP_SCHEDULES_JOB, sweepDueSchedules } from './schedules.jobs.js';

interface SchedulesParts {
  jobs: SchedulesJobs;
  service: SchedulesService;
  store: ReturnType<typeof withMediaQuota>;
}

/** One service per app: the module's routes and the messages module's port (a send with a date) share it. */
const partsByPlatform = new WeakMap<Platform, SchedulesParts>();

function schedulesParts(platform: Platform): SchedulesParts {
  const known = partsByPlatform.get(platform);
  if (known) return known;
  const { db, events } = platform;
  const links = createMediaLinks(platform.secrets.jwtSecret, platform.config.publicUrl);
  const jobs = createSchedulesJobs({ db, events, queue: platform.jobs, links });
  // The same store as the messages module's uploads: a scheduled file becomes the sent message's media.
  const store = withMediaQuota(
    createMediaStore({ root: path.join(platform.config.dataDir, 'media'), s3: platform.config.mediaS3 }),
    createMediaQuota(db, platform.config.mediaTenantQuotaBytes),
  );
  const service = createSchedulesService({ db, events, queue: platform.jobs, jobs, store });
  const parts = { jobs, service, store };
  partsByPlatform.set(platform, parts);
  return parts;
}

/** POST /messages/{ticketId} with a `scheduleDate` stores a schedule (client-contract §5.2), wired in modules.ts. */
export function messageSchedulingPort(platform: Platform): MessageSchedulingPort {
  const { service } = schedulesParts(platform);
  return { scheduleOnTicket: (ctx, ticketId, input, file) => service.scheduleOnTicket(ctx, ticketId, input, file) };
}

export const schedulesModule: AppModule = (platform) => {
  const { jobs, service, store } = schedulesParts(platform);
  registerSchedulesRealtime({ db: platform.db, events: platform.events, realtime: platform.realtime });
  return {
    plugin: schedulesRoutes(service, { store, maxUploadBytes: platform.config.mediaMaxUploadBytes }),
    jobs: [jobs.send, jobs.sweep] as never[],
  };
};
