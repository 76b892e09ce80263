/** Scheduled messages (agendamentos): routes, the send and sweep jobs, realtime. */
import type { AppModule } from '../../modules.js';
import { createMediaLinks } from '../messages/index.js';
import { createSchedulesJobs } from './schedules.jobs.js';
import { registerSchedulesRealtime } from './schedules.realtime.js';
import { schedulesRoutes } from './schedules.routes.js';
import { createSchedulesService } from './schedules.service.js';

export { scheduledMessages } from './schedules.tables.js';
export { SEND_SCHEDULE_JOB, SWEEP_SCHEDULES_JOB, sweepDueSchedules } from './schedules.jobs.js';

export const schedulesModule: AppModule = (platform) => {
  const { db, events } = platform;
  const links = createMediaLinks(platform.secrets.jwtSecret, platform.config.publicUrl);
  const jobs = createSchedulesJobs({ db, events, queue: platform.jobs, links });
  registerSchedulesRealtime(events, platform.realtime);
  return {
    plugin: schedulesRoutes(createSchedulesService({ db, events, queue: platform.jobs, jobs })),
    jobs: [jobs.send, jobs.sweep] as never[],
  };
};
