export { plans, tenants } from './tenants.tables.js';
export { bootstrapInstallation } from './bootstrap.js';
