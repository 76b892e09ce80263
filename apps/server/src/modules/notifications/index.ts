import type { AppModule } from '../../kernel/module.js';
import { registerNotificationsRealtime } from './notifications.realtime.js';
import { notificationsRoutes } from './notifications.routes.js';
import { createNotificationsService } from './notifications.service.js';

export { createNotifications, publishCreated } from './notifications.service.js';
export type { NewNotification } from './notifications.repository.js';

export const notificationsModule: AppModule = (platform) => {
  registerNotificationsRealtime({ events: platform.events, realtime: platform.realtime });
  return { plugin: notificationsRoutes(createNotificationsService({ db: platform.db, events: platform.events })) };
};
