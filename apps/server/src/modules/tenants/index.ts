import type { AppModule } from '../../kernel/module.js';
import type { Platform } from '../../platform/platform.js';
import type { TenantSetupPort } from './tenants.service.js';
import { tenantsRoutes } from './tenants.routes.js';
import { createTenantsService } from './tenants.service.js';
import { createTenantFlagsService } from './tenants.flags.js';
import { createTenantTokensService } from './tenants.tokens.js';

export { createMediaQuota, readMediaUsage } from './tenants.media-usage.js';
export { readTenantTokens, type TenantTokens } from './tenants.tokens.js';
export { readTenantFlagsOf } from './tenants.flags.js';
export { findPublicPlan, findTenantById, insertTenant } from './tenants.repository.js';
export type { PlanRow, TenantRow } from './tenants.repository.js';

export type { TenantSetupPort } from './tenants.service.js';

/** The tenants module; `setupFor` supplies what a new tenant is given in its creating transaction (settings). */
export const createTenantsModule =
  (setupFor: (platform: Platform) => TenantSetupPort): AppModule =>
  (platform) => ({
    plugin: tenantsRoutes(
      createTenantsService({ db: platform.db, events: platform.events, setup: setupFor(platform) }),
      createTenantFlagsService({ db: platform.db }),
      createTenantTokensService({ db: platform.db }),
    ),
  });
