import type { AppModule } from '../../modules.js';
import { tenantsRoutes } from './tenants.routes.js';
import { createTenantsService } from './tenants.service.js';
import { createTenantPreferencesService } from './tenants.preferences.js';
import { createTenantFlagsService } from './tenants.flags.js';
import { createTenantTokensService } from './tenants.tokens.js';

export { createMediaQuota, readMediaUsage } from './tenants.media-usage.js';
export { readRatingConfig } from './tenants.preferences.js';
export { readTenantTokens, type TenantTokens } from './tenants.tokens.js';
export { readTenantFlagsOf } from './tenants.flags.js';
export { findPublicPlan, findTenantById, insertTenant } from './tenants.repository.js';
export type { PlanRow, TenantRow } from './tenants.repository.js';

export const tenantsModule: AppModule = (platform) => ({
  plugin: tenantsRoutes(
    createTenantsService({ db: platform.db, events: platform.events }),
    createTenantPreferencesService({ db: platform.db, events: platform.events }),
    createTenantFlagsService({ db: platform.db }),
    createTenantTokensService({ db: platform.db }),
  ),
});
