import type { AppModule } from '../../modules.js';
import { settingsRoutes } from './settings.routes.js';
import { registerSettingsRealtime } from './settings.realtime.js';
import { createSettingsService } from './settings.service.js';

export {
  autoCloseSinceSql,
  findSetting,
  findTenantDocument,
  insertDefaultSettings,
  listSettings,
  saveTenantDocument,
  settingEnabledSql,
  upsertSetting,
} from './settings.repository.js';
export type { TenantDocumentName } from './settings.repository.js';
export type { SettingsService } from './settings.service.js';

export const settingsModule: AppModule = (platform) => {
  const service = createSettingsService({ db: platform.db, events: platform.events });
  registerSettingsRealtime(platform.events, platform.realtime);
  return { plugin: settingsRoutes(service) };
};
