import type { AppModule } from '../../kernel/module.js';
import { settingsRoutes } from './settings.routes.js';
import { registerSettingsRealtime } from './settings.realtime.js';
import { createSettingsService } from './settings.service.js';
import { createTenantPreferencesService } from './settings.preferences.js';
import { tenantPreferencesRoutes } from './settings.preferences.routes.js';
import { insertDefaultSettings } from './settings.repository.js';
import type { TenantSetupPort } from '../tenants/index.js';

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
export { readRatingConfig } from './settings.preferences.js';
export type { SettingsService } from './settings.service.js';

export const settingsModule: AppModule = (platform) => {
  const service = createSettingsService({ db: platform.db, events: platform.events });
  registerSettingsRealtime(platform.events, platform.realtime);
  const preferences = createTenantPreferencesService({ db: platform.db, events: platform.events });
  return {
    plugin: async (app) => {
      await app.register(settingsRoutes(service));
      await app.register(tenantPreferencesRoutes(preferences));
    },
  };
};

/** Implements the tenants module's TenantSetupPort: a new tenant starts with the default settings. */
export const tenantSetup: TenantSetupPort = { setUpTenant: (tx, tenantId) => insertDefaultSettings(tx, tenantId) };
