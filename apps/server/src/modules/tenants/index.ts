import type { AppModule } from '../../modules.js';
import { tenantsRoutes } from './tenants.routes.js';
import { createTenantsService } from './tenants.service.js';

export { plans, tenants } from './tenants.tables.js';
export { findPublicPlan, findTenantById, insertTenant } from './tenants.repository.js';
export type { PlanRow, TenantRow } from './tenants.repository.js';

export const tenantsModule: AppModule = (platform) => ({
  plugin: tenantsRoutes(createTenantsService({ db: platform.db })),
});
